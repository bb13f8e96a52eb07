"use client";
// The send-payout form. The beneficiary fields follow the chosen method's rail and are checked
// as you type with the API's own rules (lib/payouts/schema's recipientSchema, then
// lib/payouts/recipient's recipientIssues: CLABE and CPF/CNPJ check digits, RFC/CURP shapes, …);
// the server action runs the same checks again and its errors land next to the same fields.
import { useMemo, useRef, useState } from "react";
import Link from "next/link";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { PayoutBalanceCard, PayoutsHeader } from "@/components/dashboard/pages/payouts";
import { plainMessage } from "@/components/ui/plain-message";
import { sendPayoutAction } from "@/server/actions/payouts";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { actionError } from "@/components/dashboard/use-dashboard-data";
import { Card } from "@/components/ui/card";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Money } from "@/components/ui/money";
import { recipientSchema } from "@/lib/payouts/schema";
import { BANK_ACCOUNT_TYPES, DOC_TYPES_BY_COUNTRY, PIX_DOCUMENT_TYPES, PIX_KEY_TYPES, SPEI_DOCUMENT_TYPES, recipientIssues } from "@/lib/payouts/recipient";
import { formatPath } from "@/lib/platform/contract/validation";
import { statusWord } from "@/components/dashboard/status-words";
import { sendableMethods, withBankCode } from "@/components/dashboard/payout-send-rules";
import { countryName } from "@/components/dashboard/payment-labels";
import { methodName, typedAmount } from "@/components/dashboard/plain-words";

export type PayoutMethodRow = { id: string; name: string; currency: string; country: string; rail: string; funded: boolean; currencyAvailable: number };

const RECIPIENT_FIELDS = ["name", "account", "bankCode", "accountType", "documentType", "documentId", "email", "phone"] as const;
type RecipientField = (typeof RECIPIENT_FIELDS)[number];
type Values = Record<RecipientField, string>;
const EMPTY: Values = { name: "", account: "", bankCode: "", accountType: "", documentType: "", documentId: "", email: "", phone: "" };

// The API's option codes a person picks from; document names (CPF, RFC, DNI) are what people call them.
const OPTION_WORDS: Record<string, string> = { CHECKING: "Checking", SAVINGS: "Savings", EMAIL: "Email", PHONE: "Phone", EVP: "Random key (EVP)" };
const optionWord = (o: string) => OPTION_WORDS[o] ?? o;

type Rail = "spei" | "pix" | "bank_transfer";
/** Which fields each rail asks for, with their labels (the rules themselves are the API's). */
function layout(rail: Rail, country: string): Array<{ field: RecipientField; label: string; hint?: string; options?: readonly string[]; optional?: boolean; inputMode?: "numeric" | "email" | "tel" }> {
  const name = { field: "name" as const, label: "Beneficiary name" };
  const docId = { field: "documentId" as const, label: "Document number" };
  const email = { field: "email" as const, label: "Email (optional)", optional: true, inputMode: "email" as const };
  const phone = { field: "phone" as const, label: "Phone (optional)", optional: true, inputMode: "tel" as const };
  switch (rail) {
    case "spei":
      return [
        name,
        // No bank code field: the CLABE's first three digits are its bank's code (withBankCode).
        { field: "account", label: "CLABE", hint: "18 digits, with a valid check digit", inputMode: "numeric" },
        { field: "documentType", label: "Document type", options: SPEI_DOCUMENT_TYPES, optional: true },
        { ...docId, hint: "RFC or CURP" },
        email,
        phone,
      ];
    case "pix":
      return [
        name,
        { field: "accountType", label: "PIX key type", options: PIX_KEY_TYPES },
        { field: "account", label: "PIX key" },
        { field: "documentType", label: "Document type", options: PIX_DOCUMENT_TYPES, optional: true },
        { ...docId, hint: "CPF or CNPJ" },
        email,
        phone,
      ];
    default:
      return [
        name,
        { field: "account", label: "Account number", hint: "6-20 digits", inputMode: "numeric" },
        { field: "bankCode", label: "Bank code", hint: "Numeric", inputMode: "numeric" },
        { field: "accountType", label: "Account type", options: BANK_ACCOUNT_TYPES, optional: true },
        { field: "documentType", label: "Document type", options: DOC_TYPES_BY_COUNTRY[country] ?? [], optional: true },
        docId,
        email,
        phone,
      ];
  }
}

/** The API's recipient checks on the form's values: field name → first message. */
function clientIssues(method: PayoutMethodRow | undefined, values: Values): Partial<Record<RecipientField, string>> {
  if (!method) return {};
  const recipient = Object.fromEntries(Object.entries(withBankCode(method.rail, values)).filter(([, v]) => v.trim() !== ""));
  const out: Partial<Record<RecipientField, string>> = {};
  const put = (path: string, message: string) => {
    const field = path.replace(/^recipient\./, "") as RecipientField;
    if (RECIPIENT_FIELDS.includes(field) && !out[field]) out[field] = message;
  };
  const shape = recipientSchema.safeParse(recipient);
  if (!shape.success) for (const i of shape.error.issues) put(formatPath(i.path), i.message);
  else for (const i of recipientIssues({ rail: method.rail as Rail, country: method.country }, shape.data)) put(i.path, i.message);
  return out;
}

/** Payouts › Send a payout: the balance on top, the form with its review step below. */
export function PayoutSendView({ environment, initialBalance, initialMethods }: { environment: string; initialBalance: LoaderData<"payout-balance">; initialMethods: LoaderData<"payout-methods"> }) {
  const { data: methods } = useLiveData(environment, "payout-methods", {}, initialMethods, 5_000);
  return (
    <>
      <PayoutsHeader canMoveMoney />
      <PayoutBalanceCard environment={environment} initial={initialBalance} />
      <SendPayoutCard methods={sendableMethods(methods.items)} sandbox={environment === "sandbox"} />
    </>
  );
}

type Review = { methodId: string; amount: string; recipient: Record<string, string> };

export function SendPayoutCard({ methods, sandbox }: { methods: PayoutMethodRow[]; sandbox: boolean }) {
  const send = useOnceMutation(sendPayoutAction);
  const [methodId, setMethodId] = useState(methods.find((m) => m.rail === "spei")?.id ?? methods[0]?.id ?? "");
  const [amount, setAmount] = useState("");
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  // The second look before money leaves: what, to whom, through which rail.
  const [review, setReview] = useState<Review | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const method = methods.find((m) => m.id === methodId);
  const fields = method ? layout(method.rail as Rail, method.country) : [];
  const issues = useMemo(() => clientIssues(method, values), [method, values]);
  const serverError = actionError(send.data, send.error);
  const done = send.data?.ok ? send.data.data : null;

  const shown = (field: string): string | undefined => {
    const local = issues[field as RecipientField];
    if (local && (touched.has(field) || submitted)) return local;
    // The API's answer to the last submit, while that field is unchanged.
    const param = serverError?.param;
    if (param && !touched.has(field) && (param === field || param === `recipient.${field}`)) return plainMessage(serverError.message);
    return undefined;
  };
  const touch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  const known = new Set(["methodId", "amount", ...RECIPIENT_FIELDS.map((f) => `recipient.${f}`)]);

  return (
    <Card title="Send a payout" id="send-payout">
      <form
        ref={formRef}
        className="space-y-3"
        noValidate
        aria-describedby="send-payout-note"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          const visible = new Set(fields.map((f) => f.field));
          if (Object.keys(issues).some((f) => visible.has(f as RecipientField))) {
            // Move focus to the first field to fix, so keyboard and screen-reader users land on it.
            queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
            return;
          }
          setTouched(new Set());
          const sent = withBankCode(method?.rail ?? "", values);
          setReview({ methodId, amount, recipient: Object.fromEntries([...fields.map((f) => f.field), ...(method?.rail === "spei" ? (["bankCode"] as const) : [])].map((f) => [f, sent[f]])) });
        }}
      >
        <p id="send-payout-note" className="text-sm text-slate-600">
          Debits the balance in the method&apos;s currency when it is sent; a refusal gives it back.{sandbox ? (
            <>
              {" "}
              In the sandbox no bank is called: the payout holds its amount until you simulate its outcome on its page.
            </>
          ) : null}
        </p>
        <fieldset disabled={review !== null || send.isPending} className="grid min-w-0 grid-cols-1 gap-3 lg:grid-cols-2">
          <Field label="Method" error={shown("methodId")}>
            {(p) => (
              <Select
                {...p}
                name="methodId"
                value={methodId}
                onChange={(e) => {
                  setMethodId(e.target.value);
                  touch("methodId");
                }}
              >
                {methods.map((m) => (
                  <option key={m.id} value={m.id} title={m.id}>
                    {methodName(m.name)} · {countryName(m.country)} · {m.currency}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={`Amount (${method?.currency ?? "…"})`} error={shown("amount")} hint={method ? <>Available: <Money amount={method.currencyAvailable} currency={method.currency} /></> : undefined}>
            {(p) => (
              <Input
                {...p}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  touch("amount");
                }}
              />
            )}
          </Field>
          {fields.map((f) => (
            <Field key={`${method?.rail}-${f.field}`} label={f.label} hint={f.hint} error={shown(f.field)}>
              {(p) =>
                f.options ? (
                  <Select
                    {...p}
                    name={f.field}
                    value={values[f.field]}
                    onChange={(e) => {
                      setValues((v) => ({ ...v, [f.field]: e.target.value }));
                      touch(f.field);
                    }}
                  >
                    <option value="">{f.optional ? "Not given" : "Choose…"}</option>
                    {f.options.map((o) => (
                      <option key={o} value={o}>
                        {optionWord(o)}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    {...p}
                    name={f.field}
                    autoComplete="off"
                    inputMode={f.inputMode}
                    value={values[f.field]}
                    onChange={(e) => {
                      setValues((v) => ({ ...v, [f.field]: e.target.value }));
                      touch(f.field);
                    }}
                  />
                )
              }
            </Field>
          ))}
        </fieldset>
        {serverError && !known.has(serverError.param ?? "") ? <FormError message={plainMessage(serverError.message)} /> : null}
        {done ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Payout of <Money amount={done.payout.amount} currency={done.payout.currency} /> is {statusWord("payout", done.payout.status).toLowerCase()}.{" "}
            <Link href={`/dashboard/payouts/${done.payout.id}`} title={done.payout.id} className="underline underline-offset-2">
              View the payout
            </Link>
          </p>
        ) : null}
        {review ? null : (
          <Button type="submit" disabled={!method}>
            Review payout
          </Button>
        )}
      </form>
      {review && method ? (
        <div role="group" aria-label="Review the payout" className="mt-3 space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          <p>
            Send <strong>{typedAmount(review.amount, method.currency)}</strong> to <strong>{review.recipient.name || "—"}</strong> by {methodName(method.name)}.
          </p>
          <dl className="grid grid-cols-1 gap-1 sm:grid-cols-2">
            {fields
              .filter((f) => review.recipient[f.field])
              .map((f) => (
                <div key={f.field}>
                  <dt className="inline text-slate-600">{f.label.replace(" (optional)", "")}: </dt>
                  <dd className="inline break-all font-medium">{f.options ? optionWord(review.recipient[f.field] ?? "") : review.recipient[f.field]}</dd>
                </div>
              ))}
          </dl>
          <p className="text-slate-700">The amount leaves your {method.currency} payout balance now; a refusal by the bank gives it back.</p>
          <div className="flex flex-wrap gap-2">
            <Button
              autoFocus
              busy={send.isPending}
              onClick={() =>
                send.mutate([review], {
                  onSuccess: (r) => {
                    setReview(null);
                    if (r.ok) {
                      setValues(EMPTY);
                      setAmount("");
                      setSubmitted(false);
                    }
                  },
                })
              }
            >
              Send payout
            </Button>
            <Button variant="secondary" disabled={send.isPending} onClick={() => setReview(null)}>
              Back
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
