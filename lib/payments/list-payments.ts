// GET /payments and GET /payments/{id}: always scoped by merchant, environment and (for
// shop-bound credentials) shop. Newest first; served by the (merchant, environment, created_at)
// indexes so deep merchants stay fast.
import { z } from "zod";
import { db } from "@/lib/db";
import { singleton } from "@/lib/singleton";
import { AppError } from "@/lib/errors";
import { clampPage, envelope } from "@/lib/http/pagination";
import { toIso3 } from "@/lib/catalog/rails";
import { presentTransaction } from "@/lib/payments/present";
import type { AuthContext } from "@/lib/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";
import type { Prisma } from "@/lib/generated/prisma/client";

function scope(auth: AuthContext): Prisma.TransactionWhereInput {
  return { merchantId: auth.merchant.id, environment: auth.environment, ...(auth.shop ? { shopId: auth.shop.id } : {}) };
}

// Counting a million rows costs more than the page itself. Counts of 10,000 rows and more are
// kept for 2 s (one computation shared by concurrent requests); smaller ones are always exact.
const LARGE_COUNT = 10_000;
const COUNT_TTL_MS = 2_000;
const counts = singleton("transaction-counts", () => new Map<string, { at: number; value: Promise<number> }>());

async function countTransactions(where: Prisma.TransactionWhereInput): Promise<number> {
  const key = JSON.stringify(where);
  const hit = counts.get(key);
  if (hit && Date.now() - hit.at < COUNT_TTL_MS) {
    const value = await hit.value;
    if (value >= LARGE_COUNT) return value;
  }
  const value = db().transaction.count({ where });
  if (counts.size > 10_000) counts.clear();
  counts.set(key, { at: Date.now(), value });
  value.catch(() => counts.delete(key));
  return value;
}

export async function listPayments(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  const page = clampPage(query);
  let country: string | undefined;
  if (query.country) {
    country = toIso3(query.country) ?? undefined;
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  const where: Prisma.TransactionWhereInput = {
    ...scope(auth),
    ...(query.status ? { status: query.status } : {}),
    ...(query.paymentMethodId ? { paymentMethodId: query.paymentMethodId } : {}),
    ...(country ? { country } : {}),
    ...(query.merchantOrderId ? { merchantOrderId: query.merchantOrderId } : {}),
    ...(query.method ? { method: query.method } : {}),
  };
  const [rows, total] = await Promise.all([
    db().transaction.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit}),
    countTransactions(where),
  ]);
  return envelope(rows.map(presentTransaction), total, page);
}

export async function getPayment(auth: AuthContext, id: string) {
  const row = await db().transaction.findFirst({ where: { ...scope(auth), id } });
  if (!row) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
  return presentTransaction(row);
}
