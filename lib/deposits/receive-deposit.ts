// A transfer arrived on a CLABE (a provider notice, or the sandbox's simulate-deposit). One
// operation of the money kernel (lib/ledger/transition.ts): the deposit row, and for a credited
// one its completed pay-in transaction, the completed payment's posting (recipe
// depositCredited), and payment.completed.
// USD amount, fees and net are computed once, here, and stored: never re-derived later.
// The account row is locked first, so the same trackingKey reported twice at once is still one
// deposit (the unique index on (account, trackingKey) backs that up).
import { db, type Tx } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { localToUsd } from "@/lib/money/fx";
import { rateFor } from "@/lib/money/rates";
import { depositCredited, type Posting } from "@/lib/ledger/recipes";
import { lockRow, transition, type Change } from "@/lib/ledger/transition";
import { railById, railLimits } from "@/lib/rails/rails";
import { addDays, priceCharge, RESERVE_HOLD_DAYS, settlementDays } from "@/lib/pricing/fees";
import { presentTransaction } from "@/lib/payments/present";
import { depositMethodById } from "@/lib/deposits/methods";
import type { Deposit, DepositAccount, Transaction } from "@/lib/generated/prisma/client";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { searchKeys } from "@/lib/payments/search";
import type { DepositNotice } from "@/lib/deposits/schema";

export type IncomingTransfer = {
  /** Minor units of `currency`. */
  amount: bigint;
  currency: string;
  trackingKey: string;
  payerName: string | null;
  payerBank: string | null;
  payerDocument: string | null;
  reference: string | null;
  receivedAt: Date;
  /** `pending`: arrived, still being confirmed by the network; it credits when a credited report follows. */
  status: "pending" | "credited";
};

/**
 * A credited report of a transfer whose currency or amount differs from its pending report.
 * Only the pending report's figures were checked (currency, minimum), and neither is known to be
 * the right one: the credited report is held for an operator, never credited on a mix of the two.
 */
export type Disagreement = { depositId: string; pending: { amount: bigint; currency: string }; notice: { amount: bigint; currency: string } };

/** `held`: the transfer was not credited; its credited report is held (`Disagreement`), the deposit stays pending. */
export type ReceiveResult = { deposit: Deposit; created: boolean; credited: boolean; held?: Disagreement };

/**
 * A provider's deposit notice as a transfer to receive: the notice endpoint's parsed body, or
 * one held for a provisioning CLABE and read back from its JSON (a stored notice without a
 * status is a credited one, the body's default).
 */
export function depositFromNotice(n: Omit<DepositNotice, "status"> & { status?: DepositNotice["status"] }): IncomingTransfer {
  return {
    amount: BigInt(n.amount),
    currency: n.currency,
    trackingKey: n.trackingKey,
    payerName: n.payerName ?? null,
    payerBank: n.payerBank ?? null,
    payerDocument: n.payerDocument ?? null,
    reference: n.reference ?? null,
    receivedAt: n.receivedAt ? new Date(n.receivedAt) : new Date(),
    status: n.status ?? "credited",
  };
}

async function lockAccount(tx: Tx, id: string): Promise<DepositAccount | null> {
  // A row still waiting for its CLABE cannot receive money: as unknown as a missing account.
  const a = await lockRow(tx, "deposit_accounts", id, () => tx.depositAccount.findUnique({ where: { id } }));
  return a?.status === "provisioning" ? null : a;
}

/** Why a transfer cannot be credited (it is recorded as rejected, to be returned to the payer). */
function rejection(account: DepositAccount, t: IncomingTransfer): string | null {
  if (t.currency !== account.currency) return "currency_mismatch";
  const rail = railById(depositMethodById(account.depositMethodId)!.payinRailId)!;
  // Below the rail's minimum the fees would eat the transfer.
  if (t.amount < railLimits(rail, 0n).minLocal) return "below_minimum";
  return null;
}

async function credit(tx: Tx, account: DepositAccount, t: IncomingTransfer, rate: string, at: Date): Promise<{ transaction: Transaction; amountUsd: bigint; feeUsd: bigint; posting: Posting }> {
  const rail = railById(depositMethodById(account.depositMethodId)!.payinRailId)!;
  const merchant = await tx.merchant.findUniqueOrThrow({ where: { id: account.merchantId }, select: { tier: true } });
  const usd = localToUsd(t.amount, rate, t.currency);
  const price = priceCharge(usd, merchant.tier, rail);
  const transaction = await tx.transaction.create({
    data: {
      id: newId("transaction"),
      merchantId: account.merchantId,
      shopId: account.shopId,
      environment: account.environment,
      status: "completed",
      amountUsd: usd,
      amountLocal: t.amount,
      currencyLocal: t.currency,
      fxRate: rate,
      paymentMethodId: rail.paymentMethodId,
      method: rail.method,
      railName: account.methodName,
      country: rail.countryIso3,
      feePlatform: price.platformPercent + price.flat,
      feeProvider: price.provider,
      feeNetwork: price.network,
      reserveAmount: price.reserve,
      reserveReleaseAt: price.reserve > 0n ? addDays(at, RESERVE_HOLD_DAYS) : null,
      settlementDelay: rail.settlementDelay,
      settleAt: addDays(at, settlementDays(rail.settlementDelay)),
      provider: account.provider,
      providerRef: t.trackingKey,
      attempts: [],
      userName: account.beneficiaryName,
      userEmail: account.beneficiaryEmail,
      userPhone: account.phone,
      expiresAt: at,
      completedAt: at,
      createdAt: at,
      ...searchKeys({ merchantOrderId: null, userEmail: account.beneficiaryEmail, userName: account.beneficiaryName, inputAmount: null, inputCurrency: null, amountUsd: usd }),
    },
  });
  return { transaction, amountUsd: usd, feeUsd: price.total, posting: depositCredited(transaction) };
}

export type ReceiveOptions = {
  /** Runs first in the transaction (a notice records its id). */
  inTransaction?: (tx: Tx) => Promise<void>;
  /** Holds a credited report that disagrees with its pending one, in the same transaction. Only provider notices can (a pending report is theirs alone). */
  hold?: (tx: Tx, d: Disagreement) => Promise<void>;
};

export async function receiveDeposit(accountId: string, t: IncomingTransfer, opts: ReceiveOptions = {}): Promise<ReceiveResult> {
  const env = (await db().depositAccount.findUnique({ where: { id: accountId }, select: { environment: true } }))?.environment;
  if (!env) throw new AppError("deposit_account_not_found", `No deposit account ${accountId}.`);
  // Read before the transaction: a missing rate is a refusal (the provider retries the notice),
  // never a guess.
  const rate = await rateFor(env, t.currency);
  const r = await transition({
    name: "receiveDeposit",
    before: opts.inTransaction,
    load: (tx) => lockAccount(tx, accountId),
    missing: () => new AppError("deposit_account_not_found", `No deposit account ${accountId}.`),
    ledger: (a) => ({ merchantId: a.merchantId, environment: a.environment, shopId: a.shopId }),
    apply: async (tx, account): Promise<Change<ReceiveResult>> => {
      const seen = await tx.deposit.findUnique({ where: { depositAccountId_trackingKey: { depositAccountId: accountId, trackingKey: t.trackingKey } } });
      if (seen && (seen.status !== "pending" || t.status === "pending")) return { result: { deposit: seen, created: false, credited: false } };
      if (seen && (seen.currency !== t.currency || seen.amount !== t.amount)) {
        // The credit used to take the pending row's amount and the notice's currency and rate:
        // 3,640.00 MXN pending then "364000 USD" credited $3,640 (not $200), and 5,000.00 MXN
        // credited the pending 1,000.00. No money moves on a mix; an operator sees both figures
        // (lib/deposits/held-deposits.ts), and a credited report that agrees still credits.
        const held: Disagreement = { depositId: seen.id, pending: { amount: seen.amount, currency: seen.currency }, notice: { amount: t.amount, currency: t.currency } };
        if (!opts.hold) throw new Error(`deposit ${seen.id}: a credited report disagrees with the pending one and this caller cannot hold it`);
        await opts.hold(tx, held);
        return { result: { deposit: seen, created: false, credited: false, held } };
      }
      await bindIdempotency(tx, { resource: "deposit", id: t.trackingKey });
      const rejected = seen ? null : rejection(account, t);
      const at = new Date();
      const base = {
        beneficiaryName: account.beneficiaryName,
        beneficiaryEmail: account.beneficiaryEmail,
        payerName: t.payerName,
        payerBank: t.payerBank,
        payerDocument: t.payerDocument,
        reference: t.reference,
      };
      if (rejected || t.status === "pending") {
        const deposit = await tx.deposit.create({
          data: { id: newId("deposit"), merchantId: account.merchantId, shopId: account.shopId, environment: account.environment, depositAccountId: accountId, status: rejected ? "rejected" : "pending", rejectReason: rejected, amount: t.amount, currency: t.currency, trackingKey: t.trackingKey, receivedAt: t.receivedAt, ...base },
        });
        return { result: { deposit, created: true, credited: false } };
      }
      if (!rate) throw new AppError("fx_unavailable", `No current FX rate for ${t.currency}; the deposit cannot be priced yet.`, { details: { currency: t.currency } });
      // A pending row agrees with the notice by now (above): one amount, one currency, one rate.
      const c = await credit(tx, account, t, rate, at);
      const data = { status: "credited" as const, transactionId: c.transaction.id, amountUsd: c.amountUsd, feeUsd: c.feeUsd, netUsd: c.amountUsd - c.feeUsd, creditedAt: at };
      const deposit = seen
        ? await tx.deposit.update({ where: { id: seen.id }, data })
        : await tx.deposit.create({ data: { id: newId("deposit"), merchantId: account.merchantId, shopId: account.shopId, environment: account.environment, depositAccountId: accountId, amount: t.amount, currency: t.currency, trackingKey: t.trackingKey, receivedAt: t.receivedAt, ...base, ...data } });
      return { result: { deposit, created: !seen, credited: true }, postings: [c.posting], events: [{ type: "payment.completed", object: presentTransaction(c.transaction) }] };
    },
  });
  if (!r.changed) throw new AppError("deposit_account_not_found", `No deposit account ${accountId}.`);
  return r.result;
}
