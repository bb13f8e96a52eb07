"use client";
// The rule form: one fieldset per rule (payment method, country, amount range, how providers are
// chosen, the providers), saved through the API's schema and use case with each error beside its
// field; the same rules as JSON in an advanced view, kept in step both ways.
import { useState } from "react";
import { saveRoutingAction, saveRulesFormAction } from "@/server/actions/routing";
import { ActionForm, type FormKit } from "@/components/dashboard/kit/action-form";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { providerName } from "@/lib/providers/names";
import { draftsToRules, moved, newDraft, rulesToDrafts, type RuleDraft, type Strategy } from "@/lib/routing/rule-form";
import type { RoutingRule } from "@/lib/routing/schema";
import { OBJECTIVE_HINTS, OBJECTIVE_WORDS, STRATEGY_HINTS, STRATEGY_WORDS, countryName, type Choice, type Rule } from "@/components/dashboard/pages/routing-words";
import { MethodOptions } from "@/components/dashboard/pages/method-options";

const json = (drafts: RuleDraft[]) => JSON.stringify(draftsToRules(drafts), null, 2);

/** Rules as the JSON box holds them: a list whose items carry a payment method and providers (else the form is left as it is). */
function parsedRules(text: string): RoutingRule[] | null {
  try {
    const v: unknown = JSON.parse(text);
    const ok = Array.isArray(v) && v.every((r) => r && typeof r === "object" && typeof r.paymentMethodId === "string" && Array.isArray(r.providers) && r.providers.every((p: unknown) => p && typeof (p as { provider?: unknown }).provider === "string"));
    return ok ? (v as RoutingRule[]) : null;
  } catch {
    return null;
  }
}

/** The drafts being edited and their JSON, each updating the other. */
export function useRuleDrafts(rules: Rule[]) {
  const [drafts, setDraftsOnly] = useState(() => rulesToDrafts(rules));
  const [text, setTextOnly] = useState(() => json(rulesToDrafts(rules)));
  return {
    drafts,
    text,
    setDrafts: (next: RuleDraft[]) => (setDraftsOnly(next), setTextOnly(json(next))),
    setText: (t: string) => {
      setTextOnly(t);
      const parsed = parsedRules(t);
      if (parsed) setDraftsOnly(rulesToDrafts(parsed));
    },
  };
}
export type RuleDrafts = ReturnType<typeof useRuleDrafts>;

/** Every param an error of this form may name, so each shows beside its field. */
function paramsOf(drafts: RuleDraft[]): string[] {
  return drafts.flatMap((d, i) => {
    const r = `rules[${i}]`;
    return [`${r}.name`, `${r}.paymentMethodId`, `${r}.when.countries`, `${r}.when.minAmountUsd`, `${r}.when.maxAmountUsd`, `${r}.strategy`, `${r}.objective`, `${r}.exploration`, `${r}.providers`, ...d.providers.flatMap((_, j) => [`${r}.providers[${j}].provider`, `${r}.providers[${j}].weight`])];
  });
}

export function RulesEditor({ editor, choices }: { editor: RuleDrafts; choices: Choice[] }) {
  const { drafts, setDrafts } = editor;
  const change = (i: number, next: RuleDraft) => setDrafts(drafts.map((d, k) => (k === i ? next : d)));
  const first = choices[0];
  return (
    <Card title="Edit rules" id="routing-edit" className="mt-6">
      <ActionForm
        label="Edit routing rules"
        action={saveRulesFormAction}
        toArgs={() => [{ rules: draftsToRules(drafts) }]}
        fields={paramsOf(drafts)}
        submitLabel="Save as a new version"
        after="lock"
        againLabel="Edit again"
        done={(d) => <>Saved as version {d.version}. New payments follow it now.</>}
      >
        {(f) => (
          <>
            {drafts.length === 0 ? <p className="text-sm text-slate-700">No rules: every payment follows the platform order of its payment method. Add a rule to choose the providers yourself.</p> : null}
            <ol className="space-y-4">
              {drafts.map((d, i) => (
                <li key={i}>
                  <RuleFields i={i} draft={d} count={drafts.length} choices={choices} f={f} onChange={(next) => change(i, next)} onMove={(to) => setDrafts(moved(drafts, i, to))} onRemove={() => setDrafts(drafts.filter((_, k) => k !== i))} />
                </li>
              ))}
            </ol>
            <Button variant="secondary" size="sm" disabled={!first} onClick={() => first && setDrafts([...drafts, newDraft(first.paymentMethodId, first.providers[0]?.code)])}>
              Add a rule
            </Button>
          </>
        )}
      </ActionForm>
      <details className="mt-2 border-t border-slate-100 px-4 py-3" data-testid="routing-json">
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Advanced: edit as JSON</summary>
        <ActionForm
          className="mt-3"
          label="Edit routing rules as JSON"
          action={saveRoutingAction}
          toArgs={(f) => [{ rules: String(f.get("rules") ?? "") }]}
          fields={["rules"]}
          labels={{ rules: "Rules" }}
          submitLabel="Save the JSON as a new version"
          submitVariant="secondary"
          after="lock"
          againLabel="Edit again"
          done={(d) => <>Saved as version {d.version}. New payments follow it now.</>}
        >
          {(f) => (
            <Field label="Rules" error={f.error("rules")} hint="The same rules as the form above, as the API takes them: a change here shows in the form once it reads as rules.">
              {(p) => <Textarea {...p} name="rules" rows={12} spellCheck={false} className="font-mono text-xs" value={editor.text} onChange={(e) => editor.setText(e.target.value)} />}
            </Field>
          )}
        </ActionForm>
      </details>
    </Card>
  );
}

type RuleProps = { i: number; draft: RuleDraft; count: number; choices: Choice[]; f: FormKit; onChange: (d: RuleDraft) => void; onMove: (to: number) => void; onRemove: () => void };

function RuleFields({ i, draft: d, count, choices, f, onChange, onMove, onRemove }: RuleProps) {
  const at = (name: string) => `rules[${i}].${name}`;
  const rail = choices.find((c) => c.paymentMethodId === d.paymentMethodId);
  // A provider named by a stored rule but not offered now (not configured) stays choosable.
  const offered = [...(rail?.providers ?? []), ...d.providers.filter((p) => !rail?.providers.some((o) => o.code === p.provider)).map((p) => ({ code: p.provider, name: providerName(p.provider) }))];
  const unused = offered.filter((o) => !d.providers.some((p) => p.provider === o.code));
  const setRail = (id: string) => {
    const next = choices.find((c) => c.paymentMethodId === id);
    const kept = d.providers.filter((p) => next?.providers.some((o) => o.code === p.provider));
    onChange({ ...d, paymentMethodId: id, country: "", providers: kept.length ? kept : next?.providers[0] ? [{ provider: next.providers[0].code, weight: "" }] : [] });
  };
  const setProvider = (j: number, patch: Partial<RuleDraft["providers"][number]>) => onChange({ ...d, providers: d.providers.map((p, k) => (k === j ? { ...p, ...patch } : p)) });
  const legend = `Rule ${i + 1}`;
  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="routing-rule-form">
      <legend className="px-1 text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Name (optional)" error={f.error(at("name"))} className="sm:col-span-2 lg:col-span-3">
          {(p) => <Input {...p} name={at("name")} value={d.name} maxLength={80} onChange={(e) => onChange({ ...d, name: e.target.value })} />}
        </Field>
        <Field label="Payment method" tech="paymentMethodId" error={f.error(at("paymentMethodId"))}>
          {(p) => (
            <Select {...p} name={at("paymentMethodId")} value={d.paymentMethodId} onChange={(e) => setRail(e.target.value)}>
              {rail ? null : <option value={d.paymentMethodId}>{d.paymentMethodId}</option>}
              <MethodOptions choices={choices} />
            </Select>
          )}
        </Field>
        <Field label="Country" error={f.error(at("when.countries"))} hint={d.kept.countries ? `Also kept: ${d.kept.countries.join(", ")} (edit as JSON)` : undefined}>
          {(p) => (
            <Select {...p} name={at("when.countries")} value={d.country} onChange={(e) => onChange({ ...d, country: e.target.value })}>
              <option value="">Any country</option>
              {rail ? <option value={rail.countryIso3}>{countryName(rail.countryIso2)}</option> : null}
              {d.country && d.country !== rail?.countryIso3 ? <option value={d.country}>{d.country}</option> : null}
            </Select>
          )}
        </Field>
        <Field label="Amount from (USD)" tech="minAmountUsd" error={f.error(at("when.minAmountUsd"))} hint="Empty: no lower limit.">
          {(p) => <Input {...p} name={at("when.minAmountUsd")} inputMode="decimal" value={d.minAmountUsd} onChange={(e) => onChange({ ...d, minAmountUsd: e.target.value })} />}
        </Field>
        <Field label="Amount below (USD)" tech="maxAmountUsd" error={f.error(at("when.maxAmountUsd"))} hint="Empty: no upper limit.">
          {(p) => <Input {...p} name={at("when.maxAmountUsd")} inputMode="decimal" value={d.maxAmountUsd} onChange={(e) => onChange({ ...d, maxAmountUsd: e.target.value })} />}
        </Field>
        <Field label="Choose providers" tech={`strategy: ${d.strategy}`} error={f.error(at("strategy"))} hint={STRATEGY_HINTS[d.strategy]}>
          {(p) => (
            <Select {...p} name={at("strategy")} value={d.strategy} onChange={(e) => onChange({ ...d, strategy: e.target.value as Strategy })}>
              {Object.entries(STRATEGY_WORDS).map(([v, w]) => (
                <option key={v} value={v}>
                  {w}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {d.strategy === "success_rate" ? (
          <Field label="Maximise" tech={`objective: ${d.objective}`} error={f.error(at("objective"))} hint={OBJECTIVE_HINTS[d.objective]}>
            {(p) => (
              <Select {...p} name={at("objective")} value={d.objective} onChange={(e) => onChange({ ...d, objective: e.target.value as RuleDraft["objective"] })}>
                {Object.entries(OBJECTIVE_WORDS).map(([v, w]) => (
                  <option key={v} value={v}>
                    {w}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        ) : null}
        {d.strategy === "success_rate" ? (
          <Field label="Exploration (%)" tech="exploration" error={f.error(at("exploration"))} hint="The share of payments sent to another provider to keep learning. Empty: 5 %.">
            {(p) => <Input {...p} name={at("exploration")} inputMode="decimal" value={d.explorationPercent} onChange={(e) => onChange({ ...d, explorationPercent: e.target.value })} />}
          </Field>
        ) : null}
      </div>
      <div role="group" aria-label={`${legend}: providers`} className="mt-3">
        <p className="text-sm font-medium text-slate-800">Providers{d.strategy === "split" ? " and their shares" : d.strategy === "priority" ? ", in order" : ""}</p>
        {f.error(at("providers")) ? <p className="mt-1 text-sm text-red-700">{f.error(at("providers"))}</p> : null}
        <ol className="mt-2 space-y-2">
          {d.providers.map((pv, j) => {
            const name = providerName(pv.provider);
            return (
              <li key={j} className="flex flex-wrap items-end gap-2">
                <Field label={`Provider ${j + 1}`} error={f.error(at(`providers[${j}].provider`))} className="min-w-44 flex-1">
                  {(p) => (
                    <Select {...p} name={at(`providers[${j}].provider`)} value={pv.provider} onChange={(e) => setProvider(j, { provider: e.target.value })}>
                      {offered.filter((o) => o.code === pv.provider || unused.includes(o)).map((o) => (
                        <option key={o.code} value={o.code}>
                          {o.name}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                {d.strategy === "split" ? (
                  <Field label="Share" tech="weight" error={f.error(at(`providers[${j}].weight`))} className="w-28">
                    {(p) => <Input {...p} aria-label={`Share of ${name}`} name={at(`providers[${j}].weight`)} inputMode="numeric" value={pv.weight} onChange={(e) => setProvider(j, { weight: e.target.value })} />}
                  </Field>
                ) : null}
                <div className="flex gap-1 pb-1">
                  <Button variant="ghost" size="sm" aria-label={`Move ${name} up`} disabled={j === 0} onClick={() => onChange({ ...d, providers: moved(d.providers, j, j - 1) })}>↑</Button>
                  <Button variant="ghost" size="sm" aria-label={`Move ${name} down`} disabled={j === d.providers.length - 1} onClick={() => onChange({ ...d, providers: moved(d.providers, j, j + 1) })}>↓</Button>
                  <Button variant="ghost" size="sm" aria-label={`Remove ${name}`} disabled={d.providers.length === 1} onClick={() => onChange({ ...d, providers: d.providers.filter((_, k) => k !== j) })}>Remove</Button>
                </div>
              </li>
            );
          })}
        </ol>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button variant="secondary" size="sm" disabled={unused.length === 0} onClick={() => unused[0] && onChange({ ...d, providers: [...d.providers, { provider: unused[0].code, weight: "" }] })}>
            Add a provider
          </Button>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name={at("fallback")} checked={d.fallback} onChange={(e) => onChange({ ...d, fallback: e.target.checked })} />
            Then try the payment method&apos;s other providers
          </label>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
        <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => onMove(i - 1)}>Move {legend.toLowerCase()} up</Button>
        <Button variant="ghost" size="sm" disabled={i === count - 1} onClick={() => onMove(i + 1)}>Move {legend.toLowerCase()} down</Button>
        <Button variant="danger" size="sm" onClick={onRemove}>Remove {legend.toLowerCase()}</Button>
      </div>
    </fieldset>
  );
}
