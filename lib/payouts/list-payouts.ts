// GET /me/payout/send and GET /me/payout/send/{id}. Payouts belong to the merchant's payout
// balance (not to a shop): scoped by merchant and environment.
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { clampPage, envelope } from "@/lib/http/pagination";
import { presentPayout } from "@/lib/payouts/present";
import type { PayoutContext } from "@/lib/payouts/send-payout";
import type { PayoutStatus } from "@/lib/generated/prisma/enums";

export async function findOwnedPayout(auth: PayoutContext, id: string) {
  const p = await db().payout.findFirst({ where: { id, merchantId: auth.merchant.id, environment: auth.environment } });
  if (!p) throw new AppError("payout_not_found", `No payout ${id}.`, { param: "id" });
  return p;
}

export async function getPayout(auth: PayoutContext, id: string) {
  return { payout: presentPayout(await findOwnedPayout(auth, id)) };
}

export async function listPayouts(auth: PayoutContext, query: { limit?: unknown; offset?: unknown; status?: PayoutStatus }) {
  const page = clampPage(query);
  const where = { merchantId: auth.merchant.id, environment: auth.environment, ...(query.status ? { status: query.status } : {}) };
  const [rows, total] = await Promise.all([
    db().payout.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db().payout.count({ where }),
  ]);
  return envelope(rows.map(presentPayout), total, page);
}
