// A transfer arrived on a CLABE (a provider notice, or the sandbox's simulate-deposit). In one
// database transaction: the deposit row, and for a credited one its completed pay-in
// transaction, the same ledger postings a completed payment makes, and payment.completed.
// USD amount, fees and net are computed once, here, and stored: never re-derived later.
// The account row is locked first, so the same trackingKey reported twice at once is still one
// deposit (the unique index on (account, trackingKey) backs that up).
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { AppError } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import { localToUsd } from "@/lib/money/fx";
import { rateFor } from "@/lib/money/rates";
import { lockMerchantLedger, post, type Leg } from "@/lib/ledger/post";
import { bindIdempotency } from "@/lib/http/idempotency";
import { railById, railLimits } from "@/lib/catalog/rails";
import { addDays, FLAT_FEE_USD_MINOR, priceCharge, RESERVE_HOLD_DAYS, settlementDays } from "@/lib/payments/pricing";
import { presentTransaction } from "@/lib/payments/present";
import { depositMethodById } from "@/lib/deposits/methods";
import type { Deposit, DepositAccount, Transaction } from "@/lib/generated/prisma/client";

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

export type ReceiveResult = { deposit: Deposit; created: boolean; credited: boolean };

async function lockAccount(tx: Tx, id: string): Promise<DepositAccount> {
  await tx.$queryRaw`SELECT id FROM deposit_accounts WHERE id = ${id} FOR UPDATE`;
  return (await tx.depositAccount.findUnique({ where: { id } }))!;
}

/** Why a transfer cannot be credited (it is recorded as rejected, to be returned to the payer). */
function rejection(account: DepositAccount, t: IncomingTransfer): string | null {
  if (t.currency !== account.currency) return "currency_mismatch";
  const rail = railById(depositMethodById(account.depositMethodId)!.payinRailId)!;
  // Below the rail's minimum the fees would eat the transfer.
  if (t.amount < railLimits(rail, 0n).minLocal) return "below_minimum";
  return null;
}

async function credit(tx: Tx, account: DepositAccount, t: IncomingTransfer, rate: string, at: Date): Promise<{ transaction: Transaction; amountUsd: bigint; feeUsd: bigint }> {
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
    },
  });
  // The legs of a completed payment (lib/payments/transitions.ts completePayment).
  const flat = FLAT_FEE_USD_MINOR < transaction.feePlatform ? FLAT_FEE_USD_MINOR : transaction.feePlatform;
  const legs: Leg[] = [
    { account: "provider_clearing", currency: "USD", amount: -usd },
    { account: "pending", currency: "USD", amount: price.net },
    { account: "reserve", currency: "USD", amount: price.reserve },
    { account: "platform_fees", currency: "USD", amount: transaction.feePlatform - flat },
    { account: "flat_fees", currency: "USD", amount: flat },
    { account: "provider_fees", currency: "USD", amount: price.provider },
    { account: "network_fees", currency: "USD", amount: price.network },
  ];
  await lockMerchantLedger(tx, account.merchantId, account.environment);
  await post(tx, { merchantId: account.merchantId, environment: account.environment, kind: "deposit_credited", transactionId: transaction.id, legs });
  await emitEvent(tx, { merchantId: account.merchantId, environment: account.environment, type: "payment.completed", object: presentTransaction(transaction) });
  return { transaction, amountUsd: usd, feeUsd: price.total };
}

export async function receiveDeposit(accountId: string, t: IncomingTransfer): Promise<ReceiveResult> {
  const env = (await db().depositAccount.findUnique({ where: { id: accountId }, select: { environment: true } }))?.environment;
  if (!env) throw new AppError("deposit_account_not_found", `No deposit account ${accountId}.`);
  // Read before the transaction: a missing rate is a refusal (the provider retries the notice),
  // never a guess.
  const rate = await rateFor(env, t.currency);
  const result = await db().$transaction(async (tx): Promise<ReceiveResult> => {
    const account = await lockAccount(tx, accountId);
    const seen = await tx.deposit.findUnique({ where: { depositAccountId_trackingKey: { depositAccountId: accountId, trackingKey: t.trackingKey } } });
    if (seen && (seen.status !== "pending" || t.status === "pending")) return { deposit: seen, created: false, credited: false };
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
      return { deposit, created: true, credited: false };
    }
    if (!rate) throw new AppError("fx_unavailable", `No current FX rate for ${t.currency}; the deposit cannot be priced yet.`, { details: { currency: t.currency } });
    const amount = seen ? seen.amount : t.amount;
    const c = await credit(tx, account, { ...t, amount }, rate, at);
    const data = { status: "credited" as const, transactionId: c.transaction.id, amountUsd: c.amountUsd, feeUsd: c.feeUsd, netUsd: c.amountUsd - c.feeUsd, creditedAt: at };
    const deposit = seen
      ? await tx.deposit.update({ where: { id: seen.id }, data })
      : await tx.deposit.create({ data: { id: newId("deposit"), merchantId: account.merchantId, shopId: account.shopId, environment: account.environment, depositAccountId: accountId, amount, currency: t.currency, trackingKey: t.trackingKey, receivedAt: t.receivedAt, ...base, ...data } });
    return { deposit, created: !seen, credited: true };
  });
  if (result.credited) wakeJobs(JOB_EVENTS.webhooksDue);
  return result;
}
