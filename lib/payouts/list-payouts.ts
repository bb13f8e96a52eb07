// GET /me/payout/send and GET /me/payout/send/{id}. Payouts draw on the merchant's payout
// balance: scoped by merchant and environment; a shop-bound key sees the payouts its shop sent
// and the merchant-wide ones (no shop), never another shop's.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { listEnvelope, pageRows, readPage } from "@/lib/platform/paging/pagination";
import { presentPayout } from "@/lib/payouts/present";
import type { PayoutContext } from "@/lib/payouts/send-payout";
import type { PayoutStatus } from "@/lib/generated/prisma/enums";

const shopScope = (auth: PayoutContext) => (auth.shop ? { OR: [{ shopId: auth.shop.id }, { shopId: null }] } : {});

export async function findOwnedPayout(auth: PayoutContext, id: string) {
  const p = await db().payout.findFirst({ where: { id, merchantId: auth.merchant.id, environment: auth.environment, ...shopScope(auth) } });
  if (!p) throw new AppError("payout_not_found", `No payout ${id}.`, { param: "id" });
  return p;
}

export async function getPayout(auth: PayoutContext, id: string) {
  return { payout: presentPayout(await findOwnedPayout(auth, id)) };
}

export async function listPayouts(auth: PayoutContext, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: PayoutStatus }) {
  const scope = { merchantId: auth.merchant.id, environment: auth.environment, ...shopScope(auth) };
  const where = { ...scope, ...(query.status ? { status: query.status } : {}) };
  const { rows, meta } = await pageRows(readPage(query), {
    find: ({ extra, orderBy, skip, take }) => db().payout.findMany({ where: { ...where, ...extra }, orderBy, skip, take }),
    count: () => db().payout.count({ where }),
    countKey: ["payout", where],
    cursor: (id) => db().payout.findFirst({ where: { ...scope, id } }),
  });
  return listEnvelope(rows.map(presentPayout), meta);
}
