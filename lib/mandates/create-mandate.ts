// POST /mandates: a recurring PIX mandate, pending until the payer authorizes it on our hosted
// page (authorizationUrl). No money moves here: each charge is a payment made later by the
// mandate job (lib/mandates/send-due-charges.ts), so the payer's data is checked now against what
// the PIX rail will ask of those payments (a valid CPF/CNPJ, a full name), not at the first send.
// Production: the recurrence is created at a PSP that offers Pix Automático first
// (lib/mandates/open-recurrence.ts), and the mandate keeps its id and QR code; the sandbox has no
// PSP (POST /mandates/{id}/simulate plays the payer's bank).
import { AppError } from "@/lib/platform/errors";
import { newId, randomBase62 } from "@/lib/platform/ids";
import { inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { parseAmount } from "@/lib/money/parse-amount";
import { isCpfOrCnpjValid } from "@/lib/rails/document-rules";
import { shopRails } from "@/lib/catalog/list-payment-methods";
import { MANDATE_CURRENCY, MANDATE_PIX } from "@/lib/mandates/rail";
import { dayOf, todayAt } from "@/lib/mandates/dates";
import { presentMandate } from "@/lib/mandates/present";
import { openRecurrence } from "@/lib/mandates/open-recurrence";
import type { z } from "zod";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { createMandateBody } from "@/lib/mandates/schema";

export async function createMandate(auth: AuthContext, body: z.output<typeof createMandateBody>, now = new Date()) {
  const shop = auth.shop!;
  if ((body.amount === undefined) === (body.maxAmount === undefined)) {
    throw new AppError("invalid_request", "Send `amount` (a fixed mandate) or `maxAmount` (a variable one), not both and not neither.", { param: body.amount === undefined ? "amount" : "maxAmount" });
  }
  const amount = body.amount !== undefined ? parseAmount(body.amount, MANDATE_CURRENCY, "amount") : null;
  const maxAmount = body.maxAmount !== undefined ? parseAmount(body.maxAmount, MANDATE_CURRENCY, "maxAmount") : null;
  const startDate = dayOf(body.startDate);
  const endDate = body.endDate ? dayOf(body.endDate) : null;
  if (startDate < todayAt(now)) throw new AppError("invalid_request", "`startDate` must be today or later (São Paulo time).", { param: "startDate" });
  if (endDate && endDate < startDate) throw new AppError("invalid_request", "`endDate` must not be before `startDate`.", { param: "endDate" });
  if (!isCpfOrCnpjValid(body.customer.documentId)) throw new AppError("invalid_request", "`customer.documentId` must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits.", { param: "customer.documentId" });
  if (body.customer.name.split(/\s+/).length < 2) throw new AppError("invalid_request", "`customer.name` must be the payer's full name (first and last).", { param: "customer.name" });
  const pix = (await shopRails(shop.id, auth.environment)).find((r) => r.rail.paymentMethodId === MANDATE_PIX[auth.environment]);
  if (!pix?.enabled) throw new AppError("method_not_enabled_for_shop", "PIX is not enabled for this shop: its mandates' charges could not be sent.", { param: "paymentMethodId" });
  const id = newId("mandate");
  const held = auth.environment === "production" ? await openRecurrence({ mandateId: id, description: body.description, period: body.period, startDate: body.startDate, endDate: body.endDate ?? null, amountMinor: amount ?? null, payer: { name: body.customer.name, documentId: body.customer.documentId } }) : null;
  const created = await inBoundTransaction(
    (tx) =>
      tx.mandate.create({
        data: {
          id,
          token: randomBase62(24),
          merchantId: auth.merchant.id,
          shopId: shop.id,
          environment: auth.environment,
          period: body.period,
          amount,
          maxAmount,
          currency: MANDATE_CURRENCY,
          startDate,
          endDate,
          customerName: body.customer.name,
          customerEmail: body.customer.email,
          customerDocument: body.customer.documentId,
          description: body.description,
          ...(held ? { provider: held.provider, providerRef: held.providerRef, providerCode: held.qrCode } : {}),
        },
      }),
    (m) => ({ resource: "mandate", id: m.id }),
  );
  return { mandate: presentMandate(created) };
}
