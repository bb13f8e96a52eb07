"use client";
// "Card installments" on the Shops page: per card rail of Brazil and Mexico, the plan the shop
// offers now and (owners) a form to change its counts, minimum and who pays the financing, or to
// go back to the default plan. Everyone else reads the plan. The rates per count are not edited
// here (the operator CLI sets them): choosing who pays picks that side's default rates.
import { useRouter } from "next/navigation";
import { useId, useState, type ReactNode } from "react";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { resetInstallmentPlanAction, setInstallmentPlanAction } from "@/server/actions/installments";
import { Field, Input } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { formatMoney } from "@/components/ui/money";
import { plainMessage } from "@/components/ui/plain-message";
import { countryName } from "@/components/dashboard/payment-labels";
import type { PlanView, RailPlanView } from "@/lib/dashboard/installment-plans";

const PAID_BY_WORDS = { merchant: "The shop (sem juros / sin intereses)", buyer: "The buyer (monthly rate)" } as const;

const percent = (bp: number) => `${(bp / 100).toFixed(2)}%`;

export function ShopInstallments({ shopId, plans, canEdit }: { shopId: string; plans: RailPlanView[]; canEdit: boolean }) {
  if (plans.length === 0) return null;
  return (
    <div className="space-y-4">
      {plans.map((p) => (
        <RailPlan key={p.paymentMethodId} shopId={shopId} rail={p} canEdit={canEdit} />
      ))}
    </div>
  );
}

function RailPlan({ shopId, rail, canEdit }: { shopId: string; rail: RailPlanView; canEdit: boolean }) {
  const router = useRouter();
  const headingId = useId();
  const [saved, setSaved] = useState<string | null>(null);
  const done = (words: string) => {
    setSaved(words);
    // The current plan above is the server's: read it again.
    router.refresh();
  };
  return (
    <section aria-labelledby={headingId} className="rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 wrap-anywhere">
          Card installments: {rail.railName}
        </h3>
        <Badge tech={rail.paymentMethodId}>{countryName(rail.country)}</Badge>
        <Badge tone={rail.own ? "blue" : "gray"}>{rail.own ? "Own plan" : "Default plan"}</Badge>
      </div>
      <CurrentPlan plan={rail.plan} currency={rail.currency} />
      {/* The live region is there before its message, so a screen reader announces the message. */}
      {canEdit ? <div role="status">{saved ? <p className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{saved}</p> : null}</div> : null}
      {canEdit ? (
        <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
          {/* Keyed by the plan: after a save the form starts again from the plan now in force. */}
          <PlanForm key={JSON.stringify(rail.plan)} shopId={shopId} rail={rail} onSaved={() => done("Plan saved.")} />
          {rail.own ? (
            <ActionForm
              label={`Back to the default plan on ${rail.railName}`}
              action={resetInstallmentPlanAction}
              toArgs={() => [shopId, rail.paymentMethodId]}
              fields={[]}
              submitLabel="Back to the default plan"
              submitVariant="secondary"
              onDone={() => done("Back to the default plan.")}
            >
              {() => <p className="text-xs text-slate-600">The default: {describe(rail.defaults, rail.currency)}.</p>}
            </ActionForm>
          ) : null}
        </div>
      ) : (
        <p className="mt-3 text-xs text-slate-600">Only owners change the installment plan.</p>
      )}
    </section>
  );
}

function describe(plan: PlanView, currency: string) {
  return `${plan.counts.join(", ")} installments, at least ${formatMoney(plan.minInstallment, currency)} each, paid by the ${plan.paidBy === "merchant" ? "shop" : "buyer"}`;
}

function CurrentPlan({ plan, currency }: { plan: PlanView; currency: string }) {
  return (
    <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
      <div className="min-w-0">
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Installments offered</dt>
        <dd className="mt-0.5 break-words text-slate-900">{plan.counts.map((n) => `${n}x`).join(", ")}</dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Minimum per installment</dt>
        <dd className="mt-0.5 text-slate-900">{formatMoney(plan.minInstallment, currency)}</dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Who pays the financing</dt>
        <dd className="mt-0.5 break-words text-slate-900">{PAID_BY_WORDS[plan.paidBy]}</dd>
      </div>
      <div className="min-w-0 sm:col-span-3">
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{plan.paidBy === "merchant" ? "The shop's fee per count (of the price)" : "The buyer's monthly rate per count"}</dt>
        <dd className="mt-1">
          <ul className="flex flex-wrap gap-1.5">
            {plan.counts.map((n) => (
              <li key={n} className="rounded bg-slate-100 px-2 py-0.5 text-xs tabular-nums text-slate-800">
                {n}x: {percent(plan.rates[n] ?? 0)}
                {plan.paidBy === "buyer" ? " a month" : ""}
              </li>
            ))}
          </ul>
        </dd>
      </div>
    </dl>
  );
}

function PlanForm({ shopId, rail, onSaved }: { shopId: string; rail: RailPlanView; onSaved: () => void }) {
  const ids = useId();
  return (
    <ActionForm
      label={`Change the installment plan on ${rail.railName}`}
      action={setInstallmentPlanAction}
      toArgs={(f) => [shopId, rail.paymentMethodId, { counts: f.getAll("counts").map(String), minInstallment: String(f.get("minInstallment") ?? ""), paidBy: String(f.get("paidBy") ?? "") }]}
      check={(f) => (f.getAll("counts").length === 0 ? { param: "counts", message: "Choose at least one number of installments." } : null)}
      fields={["counts", "minInstallment", "paidBy"]}
      labels={{ counts: "installments offered", minInstallment: "minimum per installment", paidBy: "who pays the financing" }}
      submitLabel="Save plan"
      onDone={onSaved}
    >
      {(f) => (
        <>
          <ChoiceGroup legend="Installments offered" hint="Buyers may also pay at once." error={f.error("counts")} id={`${ids}-counts`}>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {rail.allowed.map((n) => (
                <label key={n} className="inline-flex min-h-8 items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" name="counts" value={n} defaultChecked={rail.plan.counts.includes(n)} className="size-4 accent-indigo-600" />
                  {n}x
                </label>
              ))}
            </div>
          </ChoiceGroup>
          <Field label={`Minimum per installment (${rail.currency})`} hint={`A count is offered only when each installment comes to at least this much. Default: ${formatMoney(rail.defaults.minInstallment, rail.currency)}.`} error={f.error("minInstallment")}>
            {(p) => <Input {...p} name="minInstallment" inputMode="decimal" autoComplete="off" defaultValue={rail.plan.minInstallment.toFixed(2)} className="max-w-40" />}
          </Field>
          <ChoiceGroup legend="Who pays the financing" error={f.error("paidBy")} id={`${ids}-paid-by`}>
            <div className="space-y-2">
              {(["merchant", "buyer"] as const).map((who) => (
                <label key={who} className="flex min-h-8 items-start gap-2 text-sm text-slate-800">
                  <input type="radio" name="paidBy" value={who} defaultChecked={rail.plan.paidBy === who} className="mt-0.5 size-4 shrink-0 accent-indigo-600" />
                  <span>
                    {PAID_BY_WORDS[who]}
                    <span className="block text-xs text-slate-600">{who === "merchant" ? "The buyer pays the price; the shop pays a fee per count." : "The buyer pays interest each month; the shop receives the price."}</span>
                  </span>
                </label>
              ))}
            </div>
          </ChoiceGroup>
        </>
      )}
    </ActionForm>
  );
}

/** Checkboxes or radios under one legend, with the error of their one field next to them. */
function ChoiceGroup({ legend, hint, error, id, children }: { legend: string; hint?: string; error?: string; id: string; children: ReactNode }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset aria-describedby={describedBy} className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {plainMessage(error)}
        </p>
      ) : null}
    </fieldset>
  );
}
