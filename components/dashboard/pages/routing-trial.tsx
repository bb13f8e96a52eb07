"use client";
// "Try these rules" (sandbox only): test payments of one shape routed by the rules being edited to
// the simulated providers, each shown with where it went, why, and what the provider answered.
// Nothing is created: no payment, no attempt, no money (lib/routing/try-rules.ts).
import { tryRoutingAction } from "@/server/actions/routing";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { Term } from "@/components/ui/term";
import { providerName } from "@/lib/providers/names";
import { REASON_WORDS, type Choice } from "@/components/dashboard/pages/routing-words";
import { MethodOptions } from "@/components/dashboard/pages/method-options";

type Trial = Extract<Awaited<ReturnType<typeof tryRoutingAction>>, { ok: true }>["data"];

const share = (x: number) => (x >= 1 ? "every payment" : `${Math.round(x * 100)} %`);

export function TrialCard({ rules, choices, editing, suggested }: { rules: () => unknown[]; choices: Choice[]; editing: boolean; /** The first rule's payment method: the one a tester most likely means. */ suggested?: string }) {
  const start = choices.some((c) => c.paymentMethodId === suggested) ? suggested : choices[0]?.paymentMethodId;
  return (
    <Card title="Try the rules on test payments" id="routing-try" className="mt-6">
      <p className="mb-3 text-sm text-slate-700">
        Test payments you create are always taken by the test provider, so its page and buttons work. Here you can see the {editing ? "rules you are editing (saved or not)" : "rules in force"} at work: each test payment is routed by them to the simulated providers, which approve a fixed share of what they receive. Nothing is created and no money moves.
      </p>
      <ActionForm
        label="Try the rules on test payments"
        action={tryRoutingAction}
        toArgs={(f) => [{ rules: rules(), paymentMethodId: String(f.get("paymentMethodId")), amountUsd: String(f.get("amountUsd") ?? ""), count: String(f.get("count") ?? "") }]}
        fields={["paymentMethodId", "amountUsd", "count"]}
        submitLabel="Send test payments"
        submitVariant="secondary"
        after="reset"
        done={(d) => <TrialResult trial={d} />}
      >
        {(f) => (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Test payment method" error={f.error("paymentMethodId")}>
              {(p) => (
                <Select {...p} key={start} name="paymentMethodId" defaultValue={start}>
                  <MethodOptions choices={choices} />
                </Select>
              )}
            </Field>
            <Field label="Amount of each (USD)" error={f.error("amountUsd")}>
              {(p) => <Input {...p} name="amountUsd" inputMode="decimal" defaultValue="25" className="w-28" />}
            </Field>
            <Field label="How many (1 to 50)" error={f.error("count")}>
              {(p) => <Input {...p} name="count" inputMode="numeric" defaultValue="10" className="w-24" />}
            </Field>
          </div>
        )}
      </ActionForm>
    </Card>
  );
}

function TrialResult({ trial }: { trial: Trial }) {
  const paid = trial.payments.filter((p) => p.paidBy).length;
  return (
    <div data-testid="routing-trial-result" className="space-y-3">
      <p>
        {trial.payments.length} test {trial.railName} {trial.payments.length === 1 ? "payment" : "payments"}: {paid} approved, {trial.payments.length - paid} declined by every provider tried.
      </p>
      <Table caption="Where the test payments went, by provider">
        <thead>
          <tr>
            <Th scope="col">Provider</Th>
            <Th scope="col" className="text-right">
              <Term tech="first attempts">Tried first</Term>
            </Th>
            <Th scope="col" className="text-right">Tried in all</Th>
            <Th scope="col" className="text-right">Approved</Th>
            <Th scope="col">Approves in a trial</Th>
          </tr>
        </thead>
        <tbody>
          {trial.providers.map((p) => (
            <tr key={p.provider} data-testid="routing-trial-provider">
              <Td>{providerName(p.provider)}</Td>
              <Td className="text-right tabular-nums">{p.first}</Td>
              <Td className="text-right tabular-nums">{p.attempts}</Td>
              <Td className="text-right tabular-nums">{p.approved}</Td>
              <Td>{share(p.approvalShare)}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ol className="space-y-1 text-sm" aria-label="Each test payment">
        {trial.payments.map((p) => (
          <li key={p.n} data-testid="routing-trial-payment" className="rounded-md bg-slate-50 px-3 py-2">
            <span className="font-medium">Test payment {p.n}</span>{" "}
            <span className="text-slate-600">({p.rule ? `rule ${p.rule.index + 1}${p.rule.name ? `, ${p.rule.name}` : ""}` : "no rule matches: platform order"})</span>:{" "}
            {p.attempts.map((a, k) => (
              <span key={k}>
                {k ? "; then " : ""}
                <strong>{providerName(a.provider)}</strong> ({REASON_WORDS[a.reason] ?? a.reason}){" "}
                <Badge tone={a.outcome === "approved" ? "green" : "red"} tech={a.outcome}>
                  {a.outcome === "approved" ? "Approved" : "Declined"}
                </Badge>
              </span>
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
}
