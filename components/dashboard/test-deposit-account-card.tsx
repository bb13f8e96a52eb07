"use client";
// Sandbox: "Create test deposit account" on the Deposit accounts page (issue 41, point 6), so a
// tester reaches an account's simulate-transfer form without writing an integration first. The
// action calls the API's get-or-create use case (POST /me/deposit-accounts): the same checks,
// the same CLABE, the same answer for a reference that already has an account.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { createTestDepositAccountAction } from "@/server/actions/deposits";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";

const FIELDS = ["endUserRef", "name", "email"] as const;

export function TestDepositAccountCard() {
  const router = useRouter();
  return (
    <Card className="mb-6" title="Create a test deposit account (sandbox)" id="test-deposit-account">
      <p className="mb-3 text-sm text-slate-600">
        Your integration creates accounts for its customers through the API. To try one now, create a test account here, then open it to simulate a transfer to its CLABE.
      </p>
      <ActionForm
        label="Create test deposit account"
        action={createTestDepositAccountAction}
        toArgs={(f) => [Object.fromEntries(FIELDS.map((k) => [k, String(f.get(k) ?? "")]))]}
        fields={FIELDS}
        labels={{ endUserRef: "Your id for this customer", name: "Customer name", email: "Customer email" }}
        submitLabel="Create test deposit account"
        onDone={() => router.refresh()}
        done={(d) => (
          <>
            {d.created ? "Created" : "This customer already has"} the account with CLABE <span className="font-mono">{d.account.clabe}</span>.{" "}
            <Link href={`/dashboard/deposit-accounts/${d.account.id}`} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
              Open it to simulate a transfer
            </Link>
          </>
        )}
      >
        {(f) => (
          <div className="grid min-w-0 grid-cols-1 gap-3 md:grid-cols-3">
            <Field label="Your id for this customer" hint="Any id of your own, e.g. test-user-1; the account is found again by it." error={f.error("endUserRef")}>
              {(p) => <Input {...p} name="endUserRef" autoComplete="off" required maxLength={200} defaultValue="test-user-1" />}
            </Field>
            <Field label="Customer name" error={f.error("name")}>
              {(p) => <Input {...p} name="name" autoComplete="off" required maxLength={200} defaultValue="Ana López" />}
            </Field>
            <Field label="Customer email" error={f.error("email")}>
              {(p) => <Input {...p} name="email" type="email" autoComplete="off" required maxLength={254} defaultValue="ana@example.com" />}
            </Field>
          </div>
        )}
      </ActionForm>
    </Card>
  );
}
