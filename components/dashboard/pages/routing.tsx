"use client";
// Routing: the shop's rules (edited as JSON, validated by the API's own schema, every save a new
// version), a readable list of them, and a preview: "this payment would go to …".
import { useState } from "react";
import type { LoaderData } from "@/server/dashboard-loaders";
import { previewRoutingAction, saveRoutingAction } from "@/server/actions/routing";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { SubNav } from "@/components/dashboard/kit/sub-nav";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, EmptyState } from "@/components/ui/table";
import { statusWord } from "@/components/dashboard/status-words";

type Routing = LoaderData<"routing">;
type Rule = Routing["rules"][number];

export const ROUTING_TABS = [
  { href: "/dashboard/routing", label: "Rules" },
  { href: "/dashboard/routing/analytics", label: "Analytics" },
] as const;

const STRATEGY_WORDS: Record<string, string> = { priority: "in this order", split: "split by weight", success_rate: "best recent approval first" };
const REASON_WORDS: Record<string, string> = { rule: "your rule", split: "drawn by weight", success_rate: "best recent approval", exploration: "exploration (keeps learning)", fallback: "platform order" };

function conditions(r: Rule): string {
  const w = r.when;
  const parts: string[] = [];
  if (w?.minAmountUsd !== undefined) parts.push(`from ${w.minAmountUsd} USD`);
  if (w?.maxAmountUsd !== undefined) parts.push(`below ${w.maxAmountUsd} USD`);
  if (w?.countries) parts.push(`country ${w.countries.join(", ")}`);
  if (w?.currencies) parts.push(`asked in ${w.currencies.join(", ")}`);
  if (w?.documentTypes) parts.push(`document ${w.documentTypes.join(", ")}`);
  return parts.length ? parts.join("; ") : "every payment";
}

export function RoutingView({ environment, initial, canEdit }: { environment: string; initial: Routing; canEdit: boolean }) {
  const { data } = useLiveData(environment, "routing", {}, initial);
  const rails = data.platformDefault;
  return (
    <>
      <PageHeader
        title="Routing"
        description="Choose which provider takes each payment: an order per payment method, a volume split, or the provider with the best recent approval rate. Rules are read from the top; the first that matches decides, and the platform order applies when none does."
      />
      <SubNav label="Routing sections" tabs={ROUTING_TABS} />
      {environment === "sandbox" ? <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">Test mode: rules you save here are kept for test mode; test payments always go to the test provider.</p> : null}
      <Card title={`Rules in force (version ${data.version})`} id="routing-rules">
        {data.rules.length === 0 ? (
          <EmptyState title="No rules yet">Every payment follows the platform order of its payment method.</EmptyState>
        ) : (
          <Table caption="Routing rules, in the order they are read">
            <thead>
              <tr>
                <Th scope="col">#</Th>
                <Th scope="col">Payment method</Th>
                <Th scope="col">When</Th>
                <Th scope="col">Providers</Th>
              </tr>
            </thead>
            <tbody>
              {data.rules.map((r, i) => (
                <tr key={i} data-testid="routing-rule">
                  <Td>{i + 1}</Td>
                  <Td>
                    {r.name ? <span className="block font-medium">{r.name}</span> : null}
                    {r.paymentMethodId}
                  </Td>
                  <Td>{conditions(r)}</Td>
                  <Td>
                    {r.providers.map((p) => (p.weight !== undefined && r.strategy === "split" ? `${p.provider} (${p.weight})` : p.provider)).join(", ")}
                    <span className="block text-xs text-slate-600">
                      {STRATEGY_WORDS[r.strategy]}
                      {r.fallback === false ? "; no other provider after these" : "; then the other providers"}
                    </span>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      {canEdit ? <EditRules rules={data.rules} /> : null}
      <PreviewCard rails={rails} />
      <Card title="Platform order" id="routing-platform" className="mt-6">
        <ul className="grid gap-1 text-sm sm:grid-cols-2">
          {rails.map((r) => (
            <li key={r.paymentMethodId}>
              <span className="font-mono text-xs">{r.paymentMethodId}</span> {r.providers.join(" → ")}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

const EXAMPLE = `[
  { "name": "Large SPEI to rapidpay", "paymentMethodId": "1003", "when": { "minAmountUsd": 500 }, "providers": [{ "provider": "rapidpay" }] },
  { "paymentMethodId": "1003", "strategy": "split", "providers": [{ "provider": "andespay", "weight": 70 }, { "provider": "pagosur", "weight": 30 }] },
  { "paymentMethodId": "1007", "strategy": "success_rate", "exploration": 0.05, "providers": [{ "provider": "rapidpay" }, { "provider": "andespay" }] }
]`;

function EditRules({ rules }: { rules: Rule[] }) {
  const [text, setText] = useState(rules.length ? JSON.stringify(rules, null, 2) : EXAMPLE);
  return (
    <Card title="Edit rules" id="routing-edit" className="mt-6">
      <ActionForm
        label="Edit routing rules"
        action={saveRoutingAction}
        toArgs={(f) => [{ rules: String(f.get("rules") ?? "") }]}
        fields={["rules"]}
        labels={{ rules: "Rules" }}
        submitLabel="Save as a new version"
        after="lock"
        againLabel="Edit again"
        done={(d) => <>Saved as version {d.version}. New payments follow it now.</>}
      >
        {(f) => (
          <Field label="Rules" error={f.error("rules")} hint="A list of rules: paymentMethodId, optional when (minAmountUsd, maxAmountUsd, countries, currencies, documentTypes), strategy (priority, split, success_rate), providers (with weight for a split), fallback.">
            {(p) => <Textarea {...p} name="rules" rows={12} spellCheck={false} className="font-mono text-xs" value={text} onChange={(e) => setText(e.target.value)} />}
          </Field>
        )}
      </ActionForm>
    </Card>
  );
}

function PreviewCard({ rails }: { rails: Routing["platformDefault"] }) {
  return (
    <Card title="Preview a payment" id="routing-preview" className="mt-6">
      <ActionForm
        label="Preview where a payment would go"
        action={previewRoutingAction}
        toArgs={(f) => [{ paymentMethodId: String(f.get("paymentMethodId")), amountUsd: String(f.get("amountUsd") ?? ""), currency: String(f.get("currency") ?? "USD"), documentId: String(f.get("documentId") ?? "") }]}
        fields={["paymentMethodId", "amountUsd", "currency", "documentId"]}
        submitLabel="Preview"
        submitVariant="secondary"
        after="reset"
        done={(d) => (
          <div data-testid="routing-preview-result">
            <p>
              This {d.railName} payment would go to <strong>{d.steps[0]?.provider ?? "no provider"}</strong>
              {d.steps.length > 1 ? <>, then {d.steps.slice(1).map((s) => s.provider).join(", then ")}</> : null}.
            </p>
            <p className="text-xs text-slate-600">
              {d.rule ? `Rule ${d.rule.index + 1}${d.rule.name ? ` (${d.rule.name})` : ""}, version ${d.version}` : "No rule matches: the platform order"}; first provider: {REASON_WORDS[d.steps[0]?.reason ?? "fallback"]}
              {d.skipped.length ? `; skipped while failing: ${d.skipped.join(", ")}` : ""}.
            </p>
          </div>
        )}
      >
        {(f) => (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Payment method" error={f.error("paymentMethodId")}>
              {(p) => (
                <Select {...p} name="paymentMethodId" defaultValue={rails[0]?.paymentMethodId}>
                  {rails.map((r) => (
                    <option key={r.paymentMethodId} value={r.paymentMethodId}>
                      {r.paymentMethodId}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Amount (USD)" error={f.error("amountUsd")}>
              {(p) => <Input {...p} name="amountUsd" inputMode="decimal" defaultValue="25" className="w-28" />}
            </Field>
            <Field label="Asked in" error={f.error("currency")}>
              {(p) => <Input {...p} name="currency" defaultValue="USD" maxLength={3} className="w-20" />}
            </Field>
            <Field label="Document (optional)" error={f.error("documentId")}>
              {(p) => <Input {...p} name="documentId" className="w-44" />}
            </Field>
          </div>
        )}
      </ActionForm>
    </Card>
  );
}

export function RoutingBadge({ state }: { state: string }) {
  return (
    <Badge tone={state === "closed" ? "green" : state === "open" ? "red" : "yellow"} tech={state}>
      {statusWord("circuit", state)}
    </Badge>
  );
}
