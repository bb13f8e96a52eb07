import { deliverWebhooksFn } from "@/inngest/functions/deliver-webhooks";
import { reconcilePendingFn } from "@/inngest/functions/reconcile-pending";
import { runScheduledActionsFn } from "@/inngest/functions/run-scheduled-actions";
import { settleBalancesFn } from "@/inngest/functions/settle-balances";
import { expireCheckoutSessionsFn } from "@/inngest/functions/expire-checkout-sessions";
import { verifyLedgersFn } from "@/inngest/functions/verify-ledgers";
import { checkPayoutStatusFn } from "@/inngest/functions/check-payout-status";

export const functions = [runScheduledActionsFn, deliverWebhooksFn, reconcilePendingFn, settleBalancesFn, expireCheckoutSessionsFn, verifyLedgersFn, checkPayoutStatusFn];
