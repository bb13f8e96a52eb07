// POST /me/payout/send (API reference 3.3, 4.7). Checks come first and write nothing: the
// method, the amount, the beneficiary for the rail. Then one database transaction, serialised
// per merchant ledger, checks the balance in the method's currency and writes the payout with
// its debit, so parallel sends can never take the balance below zero. The provider is called
// after commit with our payout id as its reference; only its explicit refusal reverses the debit
// (422 payout_dispatch_failed). An unknown outcome (timeout, 5xx, unreadable) answers the payout
// as it is, processing, and the status job finds out (lib/payouts/check-payout-status.ts).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { localToUsd } from "@/lib/money/fx";
import { rateFor } from "@/lib/money/rates";
import { JOB_SIGNALS, wakeJobs } from "@/lib/platform/outbox/wake";
import { payoutDebit } from "@/lib/ledger/recipes";
import { transitionIn } from "@/lib/ledger/transition";
import { payoutBalances } from "@/lib/payouts/balances";
import { payoutDriver, payoutIconUrl, payoutMethodById } from "@/lib/payouts/methods";
import { recipientIssues } from "@/lib/payouts/recipient";
import { presentPayout } from "@/lib/payouts/present";
import { completePayoutIn } from "@/lib/payouts/transitions";
import { dispatchPayout } from "@/lib/payouts/dispatch-payout";
import { bindIdempotency, inBoundTransaction } from "@/lib/platform/idempotency/bind";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { SendInput } from "@/lib/payouts/schema";
import { merchantScope } from "@/lib/platform/scope";

export type PayoutContext = Pick<AuthContext, "merchant" | "shop" | "environment">;

/** The payout amount, in minor units of the method's currency; anything else is amount_invalid (lib/money). */
export { parseAmount };

export async function sendPayout(auth: PayoutContext, input: SendInput) {
  const method = payoutMethodById(auth.environment, input.methodId);
  if (!method) throw new AppError("payout_method_unavailable", `Payout method ${input.methodId} is not in the catalog; list GET /me/payout/methods.`, { param: "methodId" });
  // 4.7 lists amount_invalid as 422 on this endpoint (400 everywhere else).
  const amount = parseAmount(input.amount, method.currency, "amount", 422);
  const issues = recipientIssues(method, input.recipient);
  if (issues.length) {
    throw new AppError("invalid_request", `Invalid recipient for ${method.name}: \`${issues[0]!.path}\` ${issues[0]!.message}. Nothing was debited.`, { param: issues[0]!.path, details: { issues } });
  }
  const recipient = Object.fromEntries(Object.entries(input.recipient!).map(([k, v]) => [k, typeof v === "string" ? v.trim() : v]));
  const provider = method.synthetic ? "sandbox" : payoutDriver(auth.environment, method);
  const base = {
    merchantId: auth.merchant.id,
    shopId: auth.shop?.id ?? null,
    environment: auth.environment,
    methodId: method.id,
    methodName: method.name,
    rail: method.rail,
    country: method.country,
    currency: method.currency,
    amount,
    provider,
    recipient,
  };

  let created;
  if (method.synthetic) {
    // 3.3: synthetic sandbox rails: processing, no debit, no provider.
    created = await inBoundTransaction((tx) => tx.payout.create({ data: { id: newId("payout"), ...base, debited: false, status: "processing" } }), (p) => ({ resource: "payout", id: p.id }));
  } else {
    // Read before the transaction (it may query the rates table): balance_insufficient reports
    // its figures in USD too.
    const rate = await rateFor(auth.environment, method.currency);
    const usd = (minor: bigint) => (rate ? toMajor(localToUsd(minor, rate, method.currency), "USD") : null);
    created = await db().$transaction(async (tx) => {
      const debit = await transitionIn(tx, {
        name: "payoutDebit",
        // The payout row is created by this move: there is no row to lock or status to check.
        load: async () => (merchantScope(auth)),
        // The payout's shop (the sending key's), as the payout row's own.
        ledger: (scope) => ({ ...scope, shopId: base.shopId }),
        apply: async (tx) => {
          const balance = (await payoutBalances(tx, auth.merchant.id, auth.environment)).get(method.currency);
          if (!balance) throw new AppError("currency_not_funded", `There is no payout balance in ${method.currency}; swap USD to ${method.currency} first (GET/POST /me/payout/swap).`, { details: { currency: method.currency } });
          if (balance.available < amount) {
            const available = balance.available > 0n ? balance.available : 0n;
            throw new AppError("balance_insufficient", `The ${method.currency} payout balance (${toMajor(available, method.currency)}) cannot cover ${toMajor(amount, method.currency)} ${method.currency}.`, {
              param: "amount",
              details: { currency: method.currency, available: toMajor(available, method.currency), shortfall: toMajor(amount - available, method.currency), availableUsd: usd(available), shortfallUsd: usd(amount - available) },
            });
          }
          const id = newId("payout");
          // The simulated driver stands in for a provider: it "accepts" at once, with its own reference.
          // The sandbox's payouts get a reference too (what a real rail's tracking key is to the
          // merchant): a test payout shows one like a production payout does.
          const simulated = provider === "simulated" ? { providerRef: `sim_${id.slice(3)}`, dispatchedAt: new Date() } : provider === "sandbox" ? { providerRef: `sim_${id.slice(3)}` } : {};
          const p = await tx.payout.create({ data: { id, ...base, ...simulated, debited: true, status: "processing" } });
          await bindIdempotency(tx, { resource: "payout", id });
          return { result: p, postings: [payoutDebit(p)] };
        },
      });
      const p = debit.result!;
      // Without a real provider (production), the simulated driver completes it at once.
      return provider === "simulated" ? completePayoutIn(tx, p) : p;
    });
    if (created.status === "completed") wakeJobs(JOB_SIGNALS.webhooksDue);
  }

  const payout = await dispatchPayout(created);
  if (payout.status === "failed") {
    throw new AppError("payout_dispatch_failed", `The provider did not take the payout (${payout.failureReason}); the debit was reversed.`, {
      details: { failureReason: payout.failureReason, payoutId: payout.id, provider: payout.provider },
    });
  }
  const icon = payoutIconUrl(method);
  return { payout: presentPayout(payout), methodName: method.name, logoUrl: icon, iconUrl: icon };
}

