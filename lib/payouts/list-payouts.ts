// GET /me/payout/send and GET /me/payout/send/{id}. Payouts draw on the merchant's payout
// balance: scoped by merchant and environment; a shop-bound key sees the payouts its shop sent
// and the merchant-wide ones (no shop), never another shop's.
import type { Payout } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { presentPayout } from "@/lib/payouts/present";
import type { PayoutContext } from "@/lib/payouts/send-payout";
import type { PayoutStatus } from "@/lib/generated/prisma/enums";
import { ownedOrMerchantScope } from "@/lib/platform/scope";

export async function findOwnedPayout(auth: PayoutContext, id: string) {
  const p = await db().payout.findFirst({ where: { id, ...ownedOrMerchantScope(auth) } });
  if (!p) throw new AppError("payout_not_found", `No payout ${id}.`, { param: "id" });
  return p;
}

export async function getPayout(auth: PayoutContext, id: string) {
  return { payout: presentPayout(await findOwnedPayout(auth, id)) };
}

export async function listPayouts(auth: PayoutContext, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: PayoutStatus }) {
  const scope = { ...ownedOrMerchantScope(auth) };
  const where = { ...scope, ...(query.status ? { status: query.status } : {}) };
  const { rows, meta } = await pageModel<Payout>(readPage(query), { model: db().payout, name: "payout", where, scope });
  return listEnvelope(rows.map(presentPayout), meta);
}
