// QR orders after creation: list, get (by id or public token), cancel, sandbox simulate, and the
// counter page's public read. Every read is scoped to the key's merchant, shop and environment:
// another establishment's order is qr_order_not_found.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { lockRow, transition } from "@/lib/ledger/transition";
import { lockTransaction, completePayment, failPayment } from "@/lib/payments/transitions";
import { presentTransaction } from "@/lib/payments/present";
import { presentQrOrder } from "@/lib/qr/present";
import type { QrOrder } from "@/lib/generated/prisma/client";
import type { QrOrderStatus } from "@/lib/generated/prisma/enums";
import { ownedScope, type Owner } from "@/lib/platform/scope";

export async function findOwnedQrOrder(auth: Owner, idOrToken: string): Promise<QrOrder> {
  const o = await db().qrOrder.findFirst({ where: { ...ownedScope(auth), ...(idOrToken.startsWith("qro_") ? { id: idOrToken } : { token: idOrToken }) } });
  if (!o) throw new AppError("qr_order_not_found", `No QR order ${idOrToken} for this shop.`, { param: "id" });
  return o;
}

export async function getQrOrder(auth: Owner, idOrToken: string) {
  return { order: presentQrOrder(await findOwnedQrOrder(auth, idOrToken)) };
}

type Query = { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: QrOrderStatus; merchantOrderId?: string; from?: string; to?: string };

export async function listQrOrders(auth: Owner, q: Query) {
  const base = ownedScope(auth);
  const created = { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) };
  const where = { ...base, ...(q.status ? { status: q.status } : {}), ...(q.merchantOrderId ? { merchantOrderId: q.merchantOrderId } : {}), ...(q.from || q.to ? { createdAt: created } : {}) };
  const { rows, meta } = await pageModel<QrOrder>(readPage(q), { model: db().qrOrder, name: "qrOrder", where, scope: base });
  return listEnvelope(rows.map(presentQrOrder), meta);
}

const notPending = (o: QrOrder) => new AppError("qr_order_not_pending", `The order is ${o.status}.`, { details: { status: o.status } });

/**
 * pending -> cancelled, in one kernel transition: the transaction row first (the lock every
 * payment transition takes), then the order. A payment completing at the same moment either comes
 * first (409 paid) or finds the order cancelled.
 *
 * In the sandbox (its own provider) the charge ends with the order: the transaction expires
 * (payment.failed). A production charge lives at its provider, which no connector can withdraw,
 * and a payer who scanned the code before the cancel may still pay it: the transaction stays
 * pending until the provider's notice or the status poll says how it ended. Unknown is not failed;
 * money that does arrive is booked, and the order then reads paid.
 */
export async function cancelQrOrder(auth: Owner, idOrToken: string) {
  const owned = await findOwnedQrOrder(auth, idOrToken);
  const r = await transition({
    name: "cancelQrOrder",
    load: async (tx) => {
      const payment = await lockTransaction(tx, owned.transactionId);
      const order = await lockRow(tx, "qr_orders", owned.id, () => tx.qrOrder.findUnique({ where: { id: owned.id } }));
      return payment && order ? { payment, order } : null;
    },
    missing: () => new AppError("qr_order_not_found", `No QR order ${idOrToken}.`),
    ledger: ({ payment }) => ({ merchantId: payment.merchantId, environment: payment.environment, shopId: payment.shopId }),
    status: ({ order }) => order.status,
    from: ["pending"],
    refuse: ({ order }) => notPending(order),
    apply: async (tx, { payment }) => {
      const at = new Date();
      const order = await tx.qrOrder.update({ where: { id: owned.id }, data: { status: "cancelled", endedAt: at } });
      if (payment.environment !== "sandbox" || payment.status !== "pending") return { result: order, events: [] };
      const updated = await tx.transaction.update({ where: { id: payment.id }, data: { status: "expired" } });
      return { result: order, events: [{ type: "payment.failed", object: presentTransaction(updated) }] };
    },
  });
  return { order: presentQrOrder(r.changed ? r.result : r.row!.order) };
}

/** Sandbox: paid completes the order's transaction (ledger, payment.completed); expired ends it. */
export async function simulateQrOrder(auth: Owner, idOrToken: string, action: "paid" | "expired") {
  const o = await findOwnedQrOrder(auth, idOrToken);
  if (o.status !== "pending") throw notPending(o);
  bindOnNextTransition({ resource: "qr_order", id: o.id });
  const r = action === "paid" ? await completePayment(o.transactionId, { alsoCaptured: true }) : await failPayment(o.transactionId, "expired");
  const after = await db().qrOrder.findUniqueOrThrow({ where: { id: o.id } });
  if (!r.changed && after.status !== (action === "paid" ? "paid" : "expired")) throw notPending(after);
  return { order: presentQrOrder(after) };
}

/**
 * The counter page's read: by public token only, what a screen facing the payer may show. An
 * order past its deadline reads as expired (its code is no longer offered) before the expiry job
 * has settled it; `live` says its payment may still change (a last-second payment turns it paid).
 */
export async function publicQrOrder(token: string, now = new Date()) {
  if (!/^[A-Za-z0-9]{24}$/.test(token)) return null;
  const o = await db().qrOrder.findUnique({ where: { token }, include: { establishment: { select: { name: true, city: true } } } });
  if (!o) return null;
  const status = o.status === "pending" && o.expiresAt <= now ? "expired" : o.status;
  return { ...o, status, live: o.status === "pending", remainingMs: status === "pending" ? o.expiresAt.getTime() - now.getTime() : null };
}
