"use client";
// The refund of a completed payment on its detail page (components/dashboard/pages/payment-detail.tsx):
// a form bound to the refund action with a review step (money leaving), or why none can be made.
import { refundAction } from "@/server/actions/payments";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { claimStatusLabel } from "@/components/dashboard/payment-labels";
import { Card } from "@/components/ui/card";
import { formatMoney } from "@/components/ui/money";
import { Term } from "@/components/ui/term";
import { Field, Input, Select } from "@/components/ui/field";

/** A chargeback is open: the disputed amount is held, so no refund can be made meanwhile. */
export function RefundHeldCard() {
  return (
    <Card title="Refund" id="refund">
      <p className="text-sm text-slate-700">A chargeback is open on this payment: the disputed amount is held until the issuer decides, so no refund can be made meanwhile.</p>
    </Card>
  );
}

/** "R$ 150,00 can still be refunded": what remains after every refund made or under way. */
const canStill = (amount: number, currency: string) => `${formatMoney(amount, currency)} can still be refunded`;

/** A typed amount as a number (a comma is a decimal point, as the server reads it); NaN if it is none. */
const typed = (amount: string) => (amount.trim() === "" ? Number.NaN : Number(amount.trim().replace(",", ".")));

export function RefundCard({ id, currency, refundable, claims }: { id: string; currency: string; refundable: number; claims: ReadonlyArray<{ id: string; status: string }> }) {
  // `refundable` is live (the payment's data is read again after the refund is sent), so the
  // field, its hint and the review below follow each refund without a reload. The server checks
  // again in the refund's own transaction: this only spares a confirmation that would be refused.
  if (refundable <= 0) {
    return (
      <Card title="Refund" id="refund">
        <p className="text-sm text-slate-700" data-testid="refundable">
          Nothing more can be refunded: the whole payment is refunded or being refunded.
        </p>
      </Card>
    );
  }
  return (
    <Card title="Refund" id="refund">
      <p className="mb-3 text-sm text-slate-700" data-testid="refundable">
        {canStill(refundable, currency)}.
      </p>
      <ActionForm
        label="Refund"
        action={refundAction}
        toArgs={(f) => [id, { amount: String(f.get("amount") ?? "").trim(), reason: String(f.get("reason") ?? "") }]}
        check={(f) => {
          const amount = typed(String(f.get("amount") ?? ""));
          if (String(f.get("amount") ?? "").trim() === "") return { param: "amount", message: `Enter the amount to refund, up to ${formatMoney(refundable, currency)}.` };
          if (!Number.isFinite(amount) || amount <= 0) return { param: "amount", message: `Enter an amount such as ${formatMoney(refundable, currency)}.` };
          if (amount > refundable) return { param: "amount", message: `Only ${formatMoney(refundable, currency)} can still be refunded. Enter that or less.` };
          return null;
        }}
        fields={["amount", "reason"]}
        labels={{ amount: "Amount" }}
        submitLabel="Review refund"
        submitVariant="secondary"
        review={([, { amount = "", reason = "" }]) => {
          const after = Math.max(0, Math.round((refundable - typed(amount)) * 100) / 100);
          return (
            <p>
              Refund <strong>{formatMoney(typed(amount), currency)}</strong> of this payment to the buyer ({REASONS[reason] ?? reason}).{" "}
              {after <= 0 ? "That is everything that can still be refunded." : `After it, ${canStill(after, currency)}.`} A refund cannot be undone.
            </p>
          );
        }}
        confirmLabel="Refund now"
        confirmVariant="danger"
        done={(d) => {
          // The refund's status as it is now (the claims list is live), not as it was when asked.
          const now = claims.find((c) => c.id === d.refundId)?.status ?? d.status;
          return (
            <>
              <Term tech={d.refundId}>Refund</Term> of {formatMoney(Number(d.amount), d.currency)}: {claimStatusLabel(now, "user_dispute").toLowerCase()}.
            </>
          );
        }}
      >
        {(f) => (
          <>
            <Field label={`Amount (${currency})`} hint={`Up to ${formatMoney(refundable, currency)}.`} error={f.error("amount")}>
              {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" defaultValue={String(refundable)} />}
            </Field>
            <Field label="Reason" error={f.error("reason")}>
              {(p) => (
                <Select {...p} name="reason" defaultValue="requested_by_customer">
                  {Object.entries(REASONS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </>
        )}
      </ActionForm>
    </Card>
  );
}

const REASONS: Record<string, string> = { requested_by_customer: "Requested by customer", duplicate: "Duplicate", fraudulent: "Fraudulent", other: "Other" };
