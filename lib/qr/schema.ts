// QR collection (decisions.md "QR collection"): establishments and orders, shapes and endpoints.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";

export const QR_ORDER_STATUSES = ["pending", "paid", "expired", "cancelled"] as const;

export const qrEstablishment = z
  .object({
    id: z.string().describe("qre_…"),
    shopId: z.string(),
    name: z.string().describe("Merchant name in the BR Code (field 59)"),
    city: z.string().describe("Merchant city in the BR Code (field 60)"),
    mcc: z.string().describe("Merchant category code (field 52)"),
    status: z.enum(["active", "suspended"]),
    createdAt: z.string(),
  })
  .meta({ id: "QrEstablishment" });

export const qrOrder = z
  .object({
    id: z.string().describe("qro_…"),
    token: z.string().describe("Public: the counter page /qr/{token} and the image"),
    status: z.enum(QR_ORDER_STATUSES),
    amount: z.number().describe("What was asked, in `currency`"),
    currency: z.string(),
    amountLocal: z.number().describe("What the payer's bank is asked for, in currencyLocal (the BR Code's field 54)"),
    currencyLocal: z.string(),
    rail: z.literal("pix"),
    qrPayload: z.string().describe("The dynamic PIX BR Code (EMV merchant-presented, CRC16-CCITT in field 63)"),
    qrImageUrl: z.string().describe("The QR as SVG"),
    pageUrl: z.string().describe("The public counter page"),
    merchantOrderId: z.string(),
    description: z.string().nullable(),
    expiresAt: z.string(),
    transactionId: z.string().describe("The pay-in transaction that carries the money"),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
  })
  .meta({ id: "QrOrder" });

const one = z.object({ order: qrOrder });
const idParams = z.object({ id: z.string().min(1).max(64) });
const day = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date or date-time");

export const getEstablishmentEndpoint = defineEndpoint({
  method: "GET",
  path: "/qr/establishment",
  tag: "QR collection",
  summary: "The key's shop as a QR establishment",
  auth: "secret",
  permission: "read",
  shop: "required",
  response: z.object({ establishment: qrEstablishment }),
  errors: ["qr_establishment_not_found"],
});

export const createQrOrderBody = z.object({
  amount: z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: "> 0, major units of `currency`" }),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO-4217 code").optional().describe("Default BRL (the rail's currency); USD and others are converted"),
  merchantOrderId: z.string().trim().min(1).max(120),
  description: z.string().trim().max(200).optional(),
  expiresInMinutes: z.number().int().min(1).max(1440).optional().describe("Default 15"),
  country: z.string().regex(/^[A-Za-z]{2,3}$/, "must be an ISO-2 or ISO-3 code").optional().describe("BR / BRA (the only one served yet); others 422 unsupported_country"),
});

export const createQrOrderEndpoint = defineEndpoint({
  method: "POST",
  path: "/qr/orders",
  tag: "QR collection",
  summary: "Create a QR order (a dynamic PIX BR Code)",
  description:
    "Brazil only (the establishment's shop charges in BRL through PIX). Creates the order and its pending pay-in transaction (which carries qrOrderId); paying the code completes both, with payment.completed. Past expiresAt the expiry job ends it (sandbox) or asks its provider (production). A suspended establishment is 403 qr_establishment_suspended; its orders already issued can still be paid.",
  auth: "secret",
  permission: "collect",
  shop: "required",
  idempotent: true,
  body: createQrOrderBody,
  response: one,
  successStatus: 201,
  errorStatuses: { unsupported_country: 422 },
  errors: ["qr_establishment_not_found", "qr_establishment_suspended", "amount_invalid", "amount_out_of_limits", "unsupported_currency", "unsupported_country", "fx_unavailable", "method_not_enabled_for_shop", "cascade_exhausted"],
});

export const listQrOrdersEndpoint = defineEndpoint({
  method: "GET",
  path: "/qr/orders",
  tag: "QR collection",
  summary: "List QR orders",
  description: "Newest first; offset or cursor paging; filters status, merchantOrderId, from, to.",
  auth: "secret",
  permission: "read",
  shop: "required",
  query: z.object({ ...listQuery(), status: z.enum(QR_ORDER_STATUSES).optional(), merchantOrderId: z.string().max(120).optional(), from: day.optional(), to: day.optional() }),
  response: listOf(qrOrder),
  errors: ["invalid_request"],
});

export const getQrOrderEndpoint = defineEndpoint({
  method: "GET",
  path: "/qr/orders/{id}",
  tag: "QR collection",
  summary: "A QR order, by id or token",
  auth: "secret",
  permission: "read",
  shop: "required",
  params: idParams,
  response: one,
  errors: ["qr_order_not_found"],
});

export const cancelQrOrderEndpoint = defineEndpoint({
  method: "POST",
  path: "/qr/orders/{id}/cancel",
  tag: "QR collection",
  summary: "Cancel a pending QR order",
  description:
    "Sandbox: its transaction expires with it (payment.failed). Production: the charge stays with its provider until it reports how it ended (a payer who scanned before the cancel may still pay; money that arrives is booked and the order reads paid). Not pending: 409 qr_order_not_pending with details.status.",
  auth: "secret",
  permission: "collect",
  shop: "required",
  params: idParams,
  response: one,
  errors: ["qr_order_not_found", "qr_order_not_pending"],
});

export const simulateQrOrderEndpoint = defineEndpoint({
  method: "POST",
  path: "/qr/orders/{id}/simulate",
  tag: "Sandbox",
  summary: "Pay or expire a QR order (sandbox)",
  description: "paid completes the order's transaction by the same path as a provider's notice (ledger, payment.completed); expired ends both.",
  auth: "secret",
  idempotent: true,
  permission: "simulatePayment",
  shop: "required",
  params: idParams,
  body: z.object({ action: z.enum(["paid", "expired"]) }),
  response: one,
  errors: ["qr_order_not_found", "qr_order_not_pending"],
});
