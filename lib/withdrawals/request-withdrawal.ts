// POST /me/withdrawals. In ONE transaction through the money kernel, under the merchant's ledger
// lock: the balance check, the row and the hold (amount + the tier's fee, available -> in
// transit; recipe withdrawalRequested), bound to the request's Idempotency-Key. Thirty requests
// at once over a balance that covers ten: exactly ten rows. Then, in production, the custody
// provider is asked with our id (decisions.md "Money leaves at most once"): completed ends it,
// an explicit refusal fails it (amount and fee back), anything else leaves it `processing` for
// the status job (lib/withdrawals/check-withdrawal-status.ts). The sandbox calls nobody.
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { bucketTotals } from "@/lib/ledger/post";
import { withdrawalRequested } from "@/lib/ledger/recipes";
import { transitionIn, wakeAfterCommit } from "@/lib/ledger/transition";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { WITHDRAWAL_FEE_USD_MINOR } from "@/lib/pricing/fees";
import { checkDestination, findDestination } from "@/lib/crypto-assets/settlement-destination";
import { custodyConfigured, sendWithdrawal } from "@/lib/withdrawals/custody";
import { completeWithdrawal, failWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import type { z } from "zod";
import type { Withdrawal } from "@/lib/generated/prisma/client";
import type { createWithdrawalBody } from "@/lib/withdrawals/schema";
import { merchantScope, type OwnerWith } from "@/lib/platform/scope";

/** When the status job first looks at a handed-over withdrawal it has no answer for. */
export function nextCheck(w: Pick<Withdrawal, "createdAt">, now = new Date(), minMs = 1_000): Date {
  const age = now.getTime() - w.createdAt.getTime();
  return new Date(now.getTime() + Math.min(300_000, Math.max(minMs, Math.floor(age / 10))));
}

export async function requestWithdrawal(auth: OwnerWith<"merchant">, body: z.output<typeof createWithdrawalBody>) {
  if (auth.environment === "production" && !custodyConfigured()) {
    throw new AppError("service_unavailable", "Withdrawals are not available: no custody provider is configured.", { headers: { "Retry-After": "3600" } });
  }
  const amount = parseAmount(body.amountUsd, "USD", "amountUsd");
  if (amount <= 0n) throw new AppError("amount_invalid", "amountUsd must be greater than zero.", { param: "amountUsd" });
  const destination = body.destination ? checkDestination(body.destination, "destination.address") : await findDestination(auth);
  if (!destination) throw new AppError("missing_required_fields", "Send `destination` or set a settlement destination first (PUT /me/settlement-destination).", { param: "destination" });
  const fee = WITHDRAWAL_FEE_USD_MINOR[auth.merchant.tier];
  const merchantId = auth.merchant.id;
  const { environment } = auth;
  const out = await db().$transaction((tx) =>
    transitionIn(tx, {
      name: "withdrawalRequested",
      load: async () => ({ merchantId, environment }),
      ledger: (s) => ({ ...s, shopId: null }),
      apply: async () => {
        const { available } = await bucketTotals(tx, merchantId, environment);
        if (available < amount + fee) {
          throw new AppError("balance_insufficient", "The available balance cannot cover this withdrawal and its fee.", {
            details: { availableUsd: toMajor(available > 0n ? available : 0n, "USD"), shortfallUsd: toMajor(amount + fee - (available > 0n ? available : 0n), "USD"), feeUsd: toMajor(fee, "USD") },
          });
        }
        const id = newId("withdrawal");
        await bindIdempotency(tx, { resource: "withdrawal", id });
        // Production: the status job leaves it to this request's own call first (a lease past the call's timeout).
        const checkAfter = environment === "production" ? new Date(Date.now() + config().CUSTODY_TIMEOUT_MS + 5_000) : null;
        const row = await tx.withdrawal.create({ data: { id, merchantId, environment, amountUsd: amount, feeUsd: fee, asset: destination.asset, network: destination.network, address: destination.address, checkAfter } });
        return { result: row, postings: [withdrawalRequested({ amountUsd: amount, feeUsd: fee })] };
      },
    }),
  );
  wakeAfterCommit(out.wake);
  let w = out.result!;
  if (environment === "production") w = await dispatchWithdrawal(w);
  return { withdrawal: presentWithdrawal(w) };
}

/** Hands a processing withdrawal to the custody provider (again, under the same reference) and records what it said. */
export async function dispatchWithdrawal(w: Withdrawal): Promise<Withdrawal> {
  const r = await sendWithdrawal(w);
  const now = new Date();
  if (r.kind === "completed") return completeWithdrawal(w.id, r.txHash);
  if (r.kind === "refused") return failWithdrawal(w.id, `refused: ${r.reason}`);
  await db().withdrawal.updateMany({
    where: { id: w.id, status: "processing" },
    data: { dispatchedAt: w.dispatchedAt ?? now, checkAfter: nextCheck(w, now, r.kind === "pending" ? 5_000 : 1_000), ...(r.kind === "pending" && r.ref ? { custodyRef: r.ref } : {}) },
  });
  return (await db().withdrawal.findUnique({ where: { id: w.id } }))!;
}

export async function replayWithdrawal(auth: OwnerWith<"merchant">, id: string) {
  const w = await db().withdrawal.findFirst({ where: { id, ...merchantScope(auth) } });
  if (!w) throw new AppError("withdrawal_not_found", `No withdrawal ${id}.`);
  return { withdrawal: presentWithdrawal(w) };
}
