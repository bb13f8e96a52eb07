// POST /qr/orders: a counter charge shown as a dynamic PIX BR Code. The money is a pay-in
// transaction created by the same use case as POST /payments (limits, fees, FX, the provider
// cascade, idempotency); the order row is written in that transaction's own database
// transaction, with the BR Code built from the transaction's local amount, so the two exist
// together or not at all.
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import { newId, randomBase62 } from "@/lib/platform/ids";
import { brCode } from "@/lib/payments/br-code";
import { createPayment } from "@/lib/payments/create-payment";
import { toIso3 } from "@/lib/rails/rails";
import { findEstablishment } from "@/lib/qr/establishments";
import { presentQrOrder } from "@/lib/qr/present";
import { db } from "@/lib/platform/db";
import type { z } from "zod";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { createQrOrderBody } from "@/lib/qr/schema";
import { merchantScope } from "@/lib/platform/scope";

export const QR_DEFAULT_MINUTES = 15;

/** The PIX rail of QR orders in each environment. */
const PIX = { sandbox: "sbx_pix", production: "1001" } as const;

/**
 * Where the payer's bank fetches the charge (field 25 of a dynamic code): the provider's location
 * when it gave one; otherwise ours (the sandbox's never serves a real charge).
 */
function pixLocation(instructions: unknown, orderId: string, environment: "sandbox" | "production"): string {
  const given = (instructions as { pixLocation?: unknown } | null)?.pixLocation;
  if (typeof given === "string" && given.length > 0 && given.length <= 77) return given.replace(/^https?:\/\//, "");
  if (environment === "sandbox") return `pix.sandbox.latampayments.example/qr/v2/${orderId}`;
  return `${new URL(config().APP_URL).host}/pix/v2/${orderId}`;
}

export async function createQrOrder(auth: AuthContext, body: z.output<typeof createQrOrderBody>) {
  const establishment = await findEstablishment(auth);
  if (establishment.status === "suspended") throw new AppError("qr_establishment_suspended", "This establishment is suspended: it cannot issue new QR orders. Orders already issued can still be paid.");
  if (body.country && toIso3(body.country) !== "BRA") throw new AppError("unsupported_country", "QR collection serves Brazil (PIX) for now.", { param: "country", status: 422 });
  const orderId = newId("qrOrder");
  const token = randomBase62(24);
  const transactionId = newId("transaction");
  const currency = (body.currency ?? "BRL").toUpperCase();
  const created = await createPayment(
    auth,
    {
      amount: body.amount,
      currency,
      paymentMethodId: PIX[auth.environment],
      merchantOrderId: body.merchantOrderId,
      expiresInMinutes: body.expiresInMinutes ?? QR_DEFAULT_MINUTES,
    } as Parameters<typeof createPayment>[1],
    {
      id: transactionId,
      qrOrderId: orderId,
      payerUnknown: true,
      inTransaction: async (tx) => {
        const t = await tx.transaction.findUniqueOrThrow({ where: { id: transactionId } });
        await tx.qrOrder.create({
          data: {
            id: orderId,
            token,
            merchantId: t.merchantId,
            shopId: t.shopId,
            establishmentId: establishment.id,
            environment: t.environment,
            transactionId,
            amount: t.inputAmount ?? t.amountUsd,
            currency: t.inputCurrency ?? "USD",
            amountLocal: t.amountLocal,
            currencyLocal: t.currencyLocal,
            rail: "pix",
            qrPayload: brCode({ url: pixLocation(t.instructions, orderId, t.environment), amountMinor: t.amountLocal, merchantName: establishment.name, merchantCity: establishment.city, mcc: establishment.mcc, txid: orderId.replace(/^qro_/, "") }),
            merchantOrderId: body.merchantOrderId,
            description: body.description ?? null,
            expiresAt: t.expiresAt!,
            createdAt: t.createdAt,
          },
        });
      },
    },
  );
  return { order: presentQrOrder(await db().qrOrder.findUniqueOrThrow({ where: { transactionId: created.transactionId as string } })) };
}

/** The answer of a replayed create whose stored answer was lost: the order of the bound payment. */
export async function replayQrOrder(auth: Pick<AuthContext, "merchant" | "environment">, transactionId: string) {
  const o = await db().qrOrder.findFirst({ where: { transactionId, ...merchantScope(auth) } });
  if (!o) throw new AppError("qr_order_not_found", "The order of this request was not created.");
  return { order: presentQrOrder(o) };
}
