// Every endpoint of the API, in document order. A route file serves endpoints from this list;
// a test checks that every route file's paths appear in the OpenAPI document.
import type { EndpointDef } from "@/lib/platform/contract/endpoint";
import { issueTokenEndpoint, refreshTokenEndpoint } from "@/lib/platform/auth/schema";
import { meEndpoint, pingEndpoint } from "@/lib/merchants/schema";
import { openApiEndpoint } from "@/lib/openapi/schema";
import { listPaymentMethodsEndpoint } from "@/lib/catalog/schema";
import { createPaymentEndpoint, createTransactionEndpoint, getPaymentEndpoint, getTransactionEndpoint, listPaymentsEndpoint, listTransactionsEndpoint, simulatePaymentEndpoint } from "@/lib/payments/schema";
import { createTopupEndpoint, getTopupEndpoint, listTopupsEndpoint, simulateTopupEndpoint } from "@/lib/topups/schema";
import { custodyNoticeEndpoint } from "@/lib/custody/schema";
import { createWithdrawalEndpoint, getWithdrawalEndpoint, listWithdrawalsEndpoint, simulateWithdrawalEndpoint } from "@/lib/withdrawals/schema";
import { cancelQrOrderEndpoint, createQrOrderEndpoint, getEstablishmentEndpoint, getQrOrderEndpoint, listQrOrdersEndpoint, simulateQrOrderEndpoint } from "@/lib/qr/schema";
import { cancelMandateEndpoint, createMandateEndpoint, getMandateEndpoint, listChargesEndpoint, listMandatesEndpoint, scheduleChargeEndpoint, simulateMandateEndpoint, pixNoticeEndpoint } from "@/lib/mandates/schema";
import { acceptClaimEndpoint, getClaimEndpoint, getEvidenceFileEndpoint, listClaimsEndpoint, refundPaymentEndpoint, simulateClaimEndpoint, submitEvidenceEndpoint } from "@/lib/claims/schema";
import { getBalanceEndpoint, settleNowEndpoint } from "@/lib/ledger/schema";
import { getSettlementEndpoint, listSettlementsEndpoint, runSettlementEndpoint, settlementReceiptEndpoint, simulateSettlementEndpoint } from "@/lib/settlements/schema";
import { getEventEndpoint, listEventsEndpoint } from "@/lib/events/schema";
import { exportClaimsEndpoint, exportLedgerEndpoint, exportPaymentsEndpoint, exportPayoutsEndpoint, exportSettlementsEndpoint } from "@/lib/exports/schema";
import { getDestinationEndpoint, setDestinationEndpoint } from "@/lib/crypto-assets/schema";
import { getRoutingEndpoint, putRoutingEndpoint } from "@/lib/routing/schema";
import { evaluateRoutingEndpoint } from "@/lib/routing/evaluate-schema";
import { providerNoticeEndpoint } from "@/lib/providers/schema";
import { createCheckoutSessionEndpoint, getCheckoutSessionEndpoint, selectCheckoutMethodEndpoint } from "@/lib/checkout/schema";
import { getAccountEndpoint, getOrCreateAccountEndpoint, listAccountsEndpoint, listDepositMethodsEndpoint, listDepositsEndpoint, simulateDepositEndpoint, depositNoticeEndpoint } from "@/lib/deposits/schema";
import { executeSwapEndpoint, fundSandboxEndpoint, getPayoutBalanceEndpoint, getPayoutEndpoint, listCurrenciesEndpoint, listMethodsEndpoint, listPayoutsEndpoint, payoutNoticeEndpoint, quoteSwapEndpoint, sendPayoutEndpoint, simulatePayoutEndpoint, transferEndpoint } from "@/lib/payouts/schema";
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listDeliveriesEndpoint, listInboxEndpoint, listWebhooksEndpoint, replayDeliveryEndpoint, rotateSecretEndpoint, sendTestEventEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/schema";
import { listenWebhooksEndpoint, reportListenEndpoint } from "@/lib/webhooks/listen-schema";

export const ENDPOINTS: EndpointDef[] = [
  issueTokenEndpoint,
  refreshTokenEndpoint,
  pingEndpoint,
  meEndpoint,
  getBalanceEndpoint,
  settleNowEndpoint,
  getDestinationEndpoint,
  setDestinationEndpoint,
  getRoutingEndpoint,
  putRoutingEndpoint,
  evaluateRoutingEndpoint,
  listPaymentMethodsEndpoint,
  createPaymentEndpoint,
  listPaymentsEndpoint,
  getPaymentEndpoint,
  simulatePaymentEndpoint,
  refundPaymentEndpoint,
  listClaimsEndpoint,
  getClaimEndpoint,
  submitEvidenceEndpoint,
  getEvidenceFileEndpoint,
  acceptClaimEndpoint,
  simulateClaimEndpoint,
  createTopupEndpoint,
  listTopupsEndpoint,
  getTopupEndpoint,
  simulateTopupEndpoint,
  custodyNoticeEndpoint,
  createWithdrawalEndpoint,
  listWithdrawalsEndpoint,
  getWithdrawalEndpoint,
  simulateWithdrawalEndpoint,
  getEstablishmentEndpoint,
  createQrOrderEndpoint,
  listQrOrdersEndpoint,
  getQrOrderEndpoint,
  cancelQrOrderEndpoint,
  simulateQrOrderEndpoint,
  createMandateEndpoint,
  listMandatesEndpoint,
  getMandateEndpoint,
  cancelMandateEndpoint,
  scheduleChargeEndpoint,
  listChargesEndpoint,
  simulateMandateEndpoint,
  createCheckoutSessionEndpoint,
  getCheckoutSessionEndpoint,
  selectCheckoutMethodEndpoint,
  createTransactionEndpoint,
  listTransactionsEndpoint,
  getTransactionEndpoint,
  createWebhookEndpoint,
  listWebhooksEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateSecretEndpoint,
  listDeliveriesEndpoint,
  replayDeliveryEndpoint,
  sendTestEventEndpoint,
  listInboxEndpoint,
  listenWebhooksEndpoint,
  reportListenEndpoint,
  listDepositMethodsEndpoint,
  getOrCreateAccountEndpoint,
  listAccountsEndpoint,
  getAccountEndpoint,
  listDepositsEndpoint,
  simulateDepositEndpoint,
  listMethodsEndpoint,
  listCurrenciesEndpoint,
  getPayoutBalanceEndpoint,
  fundSandboxEndpoint,
  transferEndpoint,
  quoteSwapEndpoint,
  executeSwapEndpoint,
  sendPayoutEndpoint,
  listPayoutsEndpoint,
  getPayoutEndpoint,
  simulatePayoutEndpoint,
  providerNoticeEndpoint,
  pixNoticeEndpoint,
  depositNoticeEndpoint,
  payoutNoticeEndpoint,
  runSettlementEndpoint,
  listSettlementsEndpoint,
  getSettlementEndpoint,
  settlementReceiptEndpoint,
  simulateSettlementEndpoint,
  listEventsEndpoint,
  getEventEndpoint,
  exportPaymentsEndpoint,
  exportLedgerEndpoint,
  exportPayoutsEndpoint,
  exportClaimsEndpoint,
  exportSettlementsEndpoint,
  openApiEndpoint,
];
