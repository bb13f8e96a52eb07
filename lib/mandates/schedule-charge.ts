// POST /mandates/{id}/charges: one charge of a mandate on a due date. Nothing is sent here: the
// mandate job sends it 2 to 10 days before the due date (lib/mandates/send-due-charges.ts). The
// unique key (mandate, due date) makes a second charge for the same day a 409, whichever of two
// concurrent requests commits first.
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { parseAmount } from "@/lib/money/parse-amount";
import { toMajor } from "@/lib/money/amount";
import { findOwnedMandate } from "@/lib/mandates/find";
import { addDays, dayOf, isoDayOf, todayAt } from "@/lib/mandates/dates";
import { presentCharge } from "@/lib/mandates/present";
import { SEND_WINDOW_DAYS } from "@/lib/mandates/send-window";
import type { z } from "zod";
import type { Owner } from "@/lib/platform/scope";
import type { scheduleChargeBody } from "@/lib/mandates/schema";

export async function scheduleMandateCharge(auth: Owner, id: string, body: z.output<typeof scheduleChargeBody>, now = new Date()) {
  const m = await findOwnedMandate(auth, id);
  if (m.status !== "active" && m.status !== "pending_authorization") throw new AppError("mandate_not_active", `The mandate is ${m.status}: it takes no more charges.`, { details: { status: m.status } });
  const dueDate = dayOf(body.dueDate);
  const earliest = addDays(todayAt(now), SEND_WINDOW_DAYS.last);
  if (dueDate < earliest) throw new AppError("invalid_request", `\`dueDate\` must be ${isoDayOf(earliest)} or later: a charge is sent to the payer's bank ${SEND_WINDOW_DAYS.last} to ${SEND_WINDOW_DAYS.first} days before its due date.`, { param: "dueDate" });
  if (dueDate < m.startDate) throw new AppError("invalid_request", `\`dueDate\` is before the mandate's startDate (${isoDayOf(m.startDate)}).`, { param: "dueDate" });
  if (m.endDate && dueDate > m.endDate) throw new AppError("invalid_request", `\`dueDate\` is after the mandate's endDate (${isoDayOf(m.endDate)}).`, { param: "dueDate" });
  let amount: bigint;
  if (m.amount !== null) {
    amount = body.amount === undefined ? m.amount : parseAmount(body.amount, m.currency);
    if (amount !== m.amount) throw new AppError("amount_invalid", `A fixed mandate charges ${toMajor(m.amount, m.currency)} ${m.currency}: leave \`amount\` out or send that.`, { param: "amount" });
  } else {
    if (body.amount === undefined) throw new AppError("invalid_request", "A variable mandate's charge names its `amount`, up to the mandate's maxAmount.", { param: "amount" });
    amount = parseAmount(body.amount, m.currency);
    if (amount > m.maxAmount!) {
      throw new AppError("amount_above_mandate_maximum", `The mandate allows at most ${toMajor(m.maxAmount!, m.currency)} ${m.currency} per charge.`, { param: "amount", details: { maxAmount: toMajor(m.maxAmount!, m.currency), currency: m.currency } });
    }
  }
  try {
    const charge = await inBoundTransaction(
      (tx) => tx.mandateCharge.create({ data: { id: newId("mandateCharge"), mandateId: m.id, merchantId: m.merchantId, shopId: m.shopId, environment: m.environment, dueDate, amount } }),
      (c) => ({ resource: "mandate_charge", id: c.id }),
    );
    return { charge: presentCharge(charge) };
  } catch (err) {
    if ((err as { code?: unknown }).code === "P2002") throw new AppError("charge_already_scheduled", `This mandate already has a charge due on ${body.dueDate}.`, { param: "dueDate", details: { dueDate: body.dueDate } });
    throw err;
  }
}
