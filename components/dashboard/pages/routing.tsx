"use client";
// Routing: the shop's rules (a form per rule, with the JSON as an advanced view; validated by the
// API's own schema, every save a new version), a readable list of those in force, a preview
// ("this payment would go to …") and, in the sandbox, a trial on simulated test payments.
import type { LoaderData } from "@/server/dashboard-loaders";
import { previewRoutingAction } from "@/server/actions/routing";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { SubNav } from "@/components/dashboard/kit/sub-nav";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, EmptyState } from "@/components/ui/table";
import { statusWord } from "@/components/dashboard/status-words";
import { providerName } from "@/lib/providers/names";
import { draftsToRules } from "@/lib/routing/rule-form";
import { RulesEditor, useRuleDrafts } from "@/components/dashboard/pages/routing-form";
import { TrialCard } from "@/components/dashboard/pages/routing-trial";
import { EstimateCard } from "@/components/dashboard/pages/routing-estimate";
import { REASON_WORDS, STRATEGY_WORDS, conditions, providersText, railName, type Choice } from "@/components/dashboard/pages/routing-words";
import { MethodOptions } from "@/components/dashboard/pages/method-options";

type Routing = LoaderData<"routing">;

export const ROUTING_TABS = [
  { href: "/dashboard/routing", label: "Rules" },
  { href: "/dashboard/routing/analytics", label: "Analytics" },
] as const;

export function RoutingView({ environment, initial, canEdit, canTry }: { environment: string; initial: Routing; canEdit: boolean; canTry: boolean }) {
  const { data } = useLiveData(environment, "routing", {}, initial);
  const editor = useRuleDrafts(initial.rules);
  const choices = data.choices;
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader
        title="Routing"
        description="Choose which provider takes each payment: an order per payment method, a split by share, or the provider with the best recent approval. Rules are read from the top; the first that matches decides, and the platform order applies when none does."
      />
      <SubNav label="Routing sections" tabs={ROUTING_TABS} />
      {sandbox ? <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">Test mode: rules you save here are kept for test mode. Test payments are taken by the test provider; try your rules on the simulated providers below.</p> : null}
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
                    {railName(choices, r.paymentMethodId)}
                  </Td>
                  <Td>{conditions(r, choices)}</Td>
                  <Td>
                    {providersText(r)}
                    <span className="block text-xs text-slate-600">
                      {STRATEGY_WORDS[r.strategy]?.toLowerCase()}
                      {r.strategy === "success_rate" && r.objective === "net_revenue" ? ", for net revenue" : ""}
                      {r.strategy === "success_rate" && r.exploration !== undefined ? ` (${Math.round(r.exploration * 1000) / 10} % exploration)` : ""}
                      {r.fallback === false ? "; no other provider after these" : "; then the other providers"}
                    </span>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      {canEdit ? <RulesEditor editor={editor} choices={choices} /> : null}
      <EstimateCard rules={() => (canEdit ? draftsToRules(editor.drafts) : data.rules)} editing={canEdit} />
      {sandbox && canTry ? <TrialCard rules={() => (canEdit ? draftsToRules(editor.drafts) : data.rules)} choices={choices} editing={canEdit} suggested={(canEdit ? editor.drafts : data.rules)[0]?.paymentMethodId} /> : null}
      <PreviewCard choices={choices} />
      <Card title="Platform order" id="routing-platform" className="mt-6">
        <ul className="grid gap-1 text-sm sm:grid-cols-2">
          {data.platformDefault.map((r) => (
            <li key={r.paymentMethodId}>
              <span className="font-medium">{railName(choices, r.paymentMethodId)}</span>: {r.providers.map(providerName).join(" → ")}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

function PreviewCard({ choices }: { choices: Choice[] }) {
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
              This {d.railName} payment would go to <strong>{providerName(d.steps[0]?.provider ?? null)}</strong>
              {d.steps.length > 1 ? <>, then {d.steps.slice(1).map((s) => providerName(s.provider)).join(", then ")}</> : null}.
            </p>
            <p className="text-xs text-slate-600">
              {d.rule ? `Rule ${d.rule.index + 1}${d.rule.name ? ` (${d.rule.name})` : ""}, version ${d.version}` : "No rule matches: the platform order"}; first provider: {REASON_WORDS[d.steps[0]?.reason ?? "fallback"]}
              {d.skipped.length ? `; skipped while failing: ${d.skipped.map(providerName).join(", ")}` : ""}.
            </p>
          </div>
        )}
      >
        {(f) => (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Payment method" error={f.error("paymentMethodId")}>
              {(p) => (
                <Select {...p} name="paymentMethodId" defaultValue={choices[0]?.paymentMethodId}>
                  <MethodOptions choices={choices} />
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
