"use client";
// Sandbox fault injection from the dashboard: a test payment whose simulated providers decline,
// time out, answer 5xx or garbage, and notify late, never or twice (Sandbox-Provider-Behaviour),
// showing what an integration would get back.
import Link from "next/link";
import { useState } from "react";
import { testCascadeAction } from "@/server/actions/payments";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { statusWord } from "@/components/dashboard/status-words";

const STEPS = ["", "accept", "decline", "timeout", "error", "garbage"] as const;
const STEP_LABEL: Record<string, string> = { "": "(none)", accept: "Accepts", decline: "Declines", timeout: "Times out", error: "Answers 5xx", garbage: "Answers garbage" };
const NOTICES = [
  ["late_notice", "Late notice (paid after 30 s)"],
  ["lost_notice", "Lost notice (found paid after 60 s)"],
  ["duplicate_notice", "Duplicate webhooks"],
] as const;

type Attempt = { provider: string; outcome: string; reason: string | null };

export function TestCascadeCard() {
  const [steps, setSteps] = useState<string[]>(["timeout", "accept", ""]);
  const [notices, setNotices] = useState<string[]>([]);
  const [rail, setRail] = useState("sbx_card");
  const [amount, setAmount] = useState("10");
  const [outcome, setOutcome] = useState("");
  const run = useOnceMutation(testCascadeAction);
  const r = run.data;
  const error = r && !r.ok ? r.error : null;
  const data = r?.ok ? r.data : null;
  return (
    <Card title="Test the provider cascade (sandbox)" id="test-cascade">
      <p className="mb-3 text-sm text-slate-600">
        Script what the simulated providers do for one test payment, as the <code>Sandbox-Provider-Behaviour</code> header does on <code>POST /payments</code>.
      </p>
      <form
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          run.reset();
          run.mutate([{ paymentMethodId: rail, amount, steps, notices, outcome }]);
        }}
      >
        {[0, 1, 2].map((i) => (
          <Field key={i} label={`Provider ${i + 1}`} error={error?.param === "Sandbox-Provider-Behaviour" && i === 0 ? error.message : null}>
            {(p) => (
              <Select {...p} value={steps[i]} onChange={(e) => setSteps((s) => s.map((v, j) => (j === i ? e.target.value : v)))}>
                {STEPS.map((s) => (
                  <option key={s} value={s}>
                    {STEP_LABEL[s]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        ))}
        <Field label="Method">
          {(p) => (
            <Select {...p} value={rail} onChange={(e) => setRail(e.target.value)}>
              {["sbx_card", "sbx_pix", "sbx_boleto", "sbx_br_card", "sbx_spei", "sbx_cash", "sbx_mx_card", "sbx_pse"].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Amount (USD)" error={error?.param === "amount" ? error.message : null}>
          {(p) => <Input {...p} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
        </Field>
        <Field label="Outcome after acceptance">
          {(p) => (
            <Select {...p} value={outcome} onChange={(e) => setOutcome(e.target.value)}>
              <option value="">None (stays pending)</option>
              <option value="paid">Paid after 5 s</option>
              <option value="failed">Failed after 5 s</option>
            </Select>
          )}
        </Field>
        <fieldset className="sm:col-span-2 lg:col-span-3">
          <legend className="text-sm font-medium text-slate-700">Notices</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {NOTICES.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" checked={notices.includes(value)} onChange={(e) => setNotices((n) => (e.target.checked ? [...n, value] : n.filter((x) => x !== value)))} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="sm:col-span-3">
          <Button type="submit" busy={run.isPending}>
            Create test payment
          </Button>
        </div>
      </form>
      <FormError message={error && error.param !== "Sandbox-Provider-Behaviour" && error.param !== "amount" ? error.message : null} />
      {data ? (
        <div role="status" className="mt-4 space-y-2 text-sm" data-testid="cascade-result">
          {data.kind === "created" ? (
            <p>
              <Badge tone="green">Created</Badge> Payment{" "}
              <Link className="font-mono text-indigo-700 underline" href={`/dashboard/payments/${data.transactionId}`}>
                {data.transactionId}
              </Link>{" "}
              is {statusWord("payment", data.status).toLowerCase()}.
            </p>
          ) : (
            <>
              <p>
                <Badge tone="red">422 {data.code}</Badge> {data.reason}
                {data.transactionId ? (
                  <>
                    {" "}
                    · kept pending:{" "}
                    <Link className="font-mono text-indigo-700 underline" href={`/dashboard/payments/${data.transactionId}`}>
                      {data.transactionId}
                    </Link>
                  </>
                ) : null}
              </p>
              <ul className="list-inside list-disc text-slate-700">
                {(data.attempts as Attempt[]).map((a, i) => (
                  <li key={i}>
                    {a.provider}: {a.outcome}
                    {a.reason ? ` (${a.reason})` : ""}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}
    </Card>
  );
}
