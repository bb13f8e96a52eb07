"use client";
// "Estimate on past traffic" (issue 45): the rules being edited (saved or not) tried on the shop's
// routed payments of a recent period, beside what the rules in force had, before they are saved.
// The estimate is the one POST /me/routing/evaluate gives (lib/routing/evaluate-rules.ts), read
// through the dashboard's route handler (app/dashboard/api/routing-estimate).
import { useId, useState } from "react";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Select } from "@/components/ui/field";
import { Money } from "@/components/ui/money";
import { Table, Td, Th } from "@/components/ui/table";
import type { EvaluationAnswer } from "@/lib/routing/evaluate-schema";

const PERIODS = [
  { value: "24h", label: "The last 24 hours" },
  { value: "7d", label: "The last 7 days" },
  { value: "30d", label: "The last 30 days" },
] as const;

type Figures = NonNullable<EvaluationAnswer["inForce"]>;
const pct = (x: number) => `${(Math.max(0, Math.min(1, x)) * 100).toFixed(1)} %`;

export function EstimateCard({ rules, editing }: { rules: () => unknown[]; editing: boolean }) {
  const [since, setSince] = useState<string>("7d");
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<EvaluationAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const status = useId();
  const estimate = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/dashboard/api/routing-estimate", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules: rules(), since }) });
      const body = (await res.json()) as EvaluationAnswer & { error?: { message: string } };
      if (!res.ok) {
        setAnswer(null);
        setError(body.error?.message ?? "The estimate could not be made. Try again.");
      } else setAnswer(body);
    } catch {
      setError("The estimate could not be made. Check the connection and try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Estimate on past traffic" id="routing-estimate" className="mt-6">
      <p className="mb-3 text-sm text-slate-700">
        See what the {editing ? "rules you are editing (saved or not)" : "rules in force"} would have done with the payments the shop routed recently, before saving them: each routed payment keeps how likely its provider was to be chosen, so the payments can be weighed as the new rules would have sent them. Nothing is saved.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Payments from">
          {(p) => (
            <Select {...p} value={since} onChange={(e) => setSince(e.target.value)}>
              {PERIODS.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Button variant="secondary" onClick={estimate} busy={busy} aria-describedby={status}>
          Estimate on past traffic
        </Button>
      </div>
      <div id={status} aria-live="polite" className="mt-4">
        {error ? <FormError message={error} /> : null}
        {answer ? <EstimateResult answer={answer} /> : null}
      </div>
    </Card>
  );
}

function EstimateResult({ answer }: { answer: EvaluationAnswer }) {
  const rows: Array<[string, Figures | null]> = [["Rules in force (what happened)", answer.inForce]];
  if (answer.enough) rows.push(["These rules, weighted estimate", answer.ips], ["These rules, model-corrected estimate", answer.dr]);
  return (
    <div data-testid="routing-estimate-result" className="space-y-3">
      <p className="text-sm text-slate-700">
        {answer.payments === 1 ? "1 routed payment" : `${answer.payments.toLocaleString("en-US")} routed payments`} in the period
        {answer.enough ? `; the estimate is worth about ${Math.floor(answer.effectiveSampleSize).toLocaleString("en-US")} of them.` : "."}
      </p>
      {!answer.enough ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="routing-estimate-too-little">
          No estimate: {answer.reason}
        </p>
      ) : null}
      {rows.some(([, f]) => f) ? (
        <Table caption="Approval rate and net revenue per payment, with their 95 % ranges">
          <thead>
            <tr>
              <Th scope="col">Routing</Th>
              <Th scope="col">Approval rate</Th>
              <Th scope="col">Net revenue per payment</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, f]) =>
              f ? (
                <tr key={name}>
                  <Td className="whitespace-normal font-medium">{name}</Td>
                  <Td className="whitespace-normal">
                    <span className="tabular-nums">{pct(f.approvalRate.value)}</span>
                    <span className="block text-xs text-slate-600">
                      likely {pct(f.approvalRate.low)} to {pct(f.approvalRate.high)}
                    </span>
                  </Td>
                  <Td className="whitespace-normal">
                    <Money amount={f.netRevenuePerPaymentUsd.value} currency="USD" />
                    <span className="block text-xs text-slate-600">
                      likely <Money amount={f.netRevenuePerPaymentUsd.low} currency="USD" /> to <Money amount={f.netRevenuePerPaymentUsd.high} currency="USD" />
                    </span>
                  </Td>
                </tr>
              ) : null,
            )}
          </tbody>
        </Table>
      ) : null}
      {answer.enough ? <p className="text-xs text-slate-600">The weighted estimate counts the payments that went where these rules would have sent them, each weighed by how rarely that happened; the model-corrected one also uses what each provider approved in each segment. Where the two disagree, trust neither until more traffic comes in.</p> : null}
    </div>
  );
}
