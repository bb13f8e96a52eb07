"use client";
// One claim, live. For an open chargeback or PIX MED claim: the evidence sent so far (files to
// download), a form to send more before dueBy, the concession ("Accept chargeback", "Return the
// PIX") behind a confirmation, and in the sandbox the outcome buttons (won needs evidence: the
// API's rule, shown as its error). A MED's words are the PIX rules': the payer's bank blocked the
// amount and decides to release it or return it to the payer, with no fee. Every word comes from
// the dashboard's message tables (components/dashboard/i18n), in the user's language.
import { useState } from "react";
import type { z } from "zod";
import { acceptClaimAction, simulateClaimAction } from "@/server/actions/claims";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, DescriptionList } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { Money, formatMoney } from "@/components/ui/money";
import { Term } from "@/components/ui/term";
import { useTimes } from "@/components/ui/time-zone";
import { claimStatusOf } from "@/components/dashboard/status-words";
import { useQueryClient } from "@tanstack/react-query";
import { EVIDENCE_FILE_LIMIT, EVIDENCE_FILES_PER_REQUEST, type claim } from "@/lib/claims/schema";
import { DueCountdown } from "@/components/ui/due-countdown";
import { useWords } from "@/components/dashboard/i18n/words";
import type { DashboardMessages } from "@/components/dashboard/i18n/messages";

export type Claim = z.infer<typeof claim>;

// A dispute's words (the message tables' per-kind entries): a MED's are the PIX rules'.
type DisputeKind = "chargeback" | "pix_med";
type DisputeWords = DashboardMessages["claimDetail"][DisputeKind];
const disputeKind = (kind: string): DisputeKind | null => (kind === "chargeback" || kind === "pix_med" ? kind : null);

export function ClaimDetailView({ environment, initial, canRespond, canSimulate }: { environment: string; initial: { claim: Claim }; canRespond: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { t } = useWords();
  const w = t.claimDetail;
  const { data } = useLiveData(environment, "claim", { id: initial.claim.id }, initial, 5_000);
  const c = data.claim;
  const dispute = disputeKind(c.kind);
  const words = w[dispute ?? "chargeback"];
  const open = dispute !== null && c.status === "open";
  const windowOpen = open && (!c.dueBy || Date.parse(c.dueBy) > Date.now());
  return (
    <>
      <MoneyRecordHeader
        href="/dashboard/claims"
        label={t.claims.title}
        current={claimTitle(c, t)}
        id={c.id}
        amount={c.amount}
        currency={c.currency}
        status={c.status}
        lead={
          <span data-testid="claim-title">
            {t.claims.kind(c.kind)} {w.on} <Money amount={c.amount} currency={c.currency} />
            {t.claims.titleReason(c.reason) ? ` — ${t.claims.titleReason(c.reason)}` : null}
          </span>
        }
        statusOf={claimStatusOf(c.kind)}
        statusWord={t.claims.status(c.status, c.kind)}
        breadcrumbLabel={t.common.breadcrumb}
        statusTestId="claim-status"
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title={t.common.details} id="claim-details">
            <DescriptionList
              items={[
                [t.common.kind, t.claims.kind(c.kind)],
                [words.amountLabel, <Money key="a" amount={c.amount} currency={c.currency} />],
                [w.usd, <Money key="u" amount={c.amountUsd} currency="USD" />],
                [t.common.payment, <a key="p" className="text-indigo-700 underline underline-offset-2" href={`/dashboard/payments/${c.transactionId}`} title={c.transactionId}>{t.common.viewPayment}</a>],
                [t.common.reason, c.reason ? <Term key="r" tech={c.reason}>{t.claims.reason(c.reason)}</Term> : "—"],
                [words.dueByLabel, c.dueBy ? (open ? <DueCountdown key="d" dueIso={c.dueBy} label={words.countdown} /> : formatDateTime(c.dueBy)) : "—"],
                [t.common.opened, formatDateTime(c.createdAt)],
                [t.common.resolved, formatDateTime(c.resolvedAt)],
              ]}
            />
          </Card>
          {dispute ? <EvidenceList claim={c} words={words} /> : null}
          {canRespond && windowOpen ? <EvidenceForm claimId={c.id} dueBy={c.dueBy} title={words.formTitle} /> : null}
          {open && !windowOpen ? (
            <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {w.lateNote(formatDateTime(c.dueBy))}
            </p>
          ) : null}
        </div>
        <div className="space-y-6">
          {canRespond && open ? <AcceptCard claimId={c.id} amount={c.amount} currency={c.currency} words={words.accept} /> : null}
          {canSimulate && environment === "sandbox" && dispute ? <SimulateClaimCard claimId={c.id} open={open} words={words} /> : null}
        </div>
      </div>
    </>
  );
}

/** What the claim is, in words: "Chargeback on R$ 100,00 — Fraud" (its id is offered to copy). */
function claimTitle(c: Claim, t: DashboardMessages): string {
  return t.claimDetail.title(t.claims.kind(c.kind), formatMoney(c.amount, c.currency), t.claims.titleReason(c.reason));
}

function EvidenceList({ claim: c, words }: { claim: Claim; words: DisputeWords }) {
  const { formatDateTime } = useTimes();
  const w = useWords().t.claimDetail;
  return (
    <Card title={words.evidenceTitle} id="claim-evidence">
      {c.evidence.length === 0 ? (
        <p className="text-sm text-slate-600">{words.nothingSent}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" aria-label={w.evidenceSent}>
          {c.evidence.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              {e.kind === "file" ? (
                <a className="text-indigo-700 underline underline-offset-2" href={`/dashboard/api/claims/${c.id}/evidence/${e.id}`} download>
                  {e.fileName}
                </a>
              ) : (
                <span className="whitespace-pre-wrap">{e.text}</span>
              )}
              <span className="text-xs text-slate-600">
                {e.kind === "file" ? <Term tech={e.contentType ?? ""}>{w.fileType(e.contentType ?? "")}</Term> : null}
                {e.kind === "file" ? ` · ${(e.size / 1024).toFixed(1)} KiB · ` : ""}
                {formatDateTime(e.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function EvidenceForm({ claimId, dueBy, title }: { claimId: string; dueBy: string | null; title: string }) {
  const { formatDateTime } = useTimes();
  const { t } = useWords();
  const w = t.claimDetail;
  const qc = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string } | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  async function submit(form: HTMLFormElement) {
    setPending(true);
    setError(null);
    setSent(null);
    try {
      const body = new FormData(form);
      // An empty file input still sends an empty part; leave it out.
      const files = body.getAll("files").filter((f): f is File => typeof f !== "string" && !(f.size === 0 && f.name === ""));
      body.delete("files");
      for (const f of files) body.append("files", f);
      // The API's limits, checked before megabytes travel; the server checks again (and the type).
      const large = files.find((f) => f.size > EVIDENCE_FILE_LIMIT);
      const tooMany = files.length > EVIDENCE_FILES_PER_REQUEST;
      if (large || tooMany) {
        setError({ param: "files", message: large ? w.tooLarge(large.name, (large.size / 1024 / 1024).toFixed(1)) : w.tooMany(EVIDENCE_FILES_PER_REQUEST) });
        return;
      }
      const res = await fetch(`/dashboard/api/claims/${claimId}/evidence`, { method: "POST", body });
      const out = await res.json().catch(() => null);
      if (!res.ok) {
        setError({ message: out?.error?.message ? t.common.apiError(out.error.message, out.error.code) : w.uploadFailed(res.status), param: out?.error?.param });
        return;
      }
      form.reset();
      setSent(w.sent(out.claim.evidence.length));
      await qc.invalidateQueries({ queryKey: ["dashboard"] });
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : w.uploadFailed() });
    } finally {
      setPending(false);
    }
  }
  return (
    <Card title={title} id="send-evidence">
      <form
        aria-label={title}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
      >
        <p className="text-sm text-slate-600">{w.filesHelp}{dueBy ? w.takenUntil(formatDateTime(dueBy)) : ""}</p>
        <Field label={w.files} error={error?.param === "files" ? error.message : undefined}>
          {(p) => <Input {...p} type="file" name="files" multiple accept="application/pdf,image/png,image/jpeg" />}
        </Field>
        <Field label={w.statement} hint={w.statementHint} error={error?.param === "text" ? error.message : undefined}>
          {(p) => <Textarea {...p} name="text" rows={4} maxLength={20_000} />}
        </Field>
        <FormError message={error && error.param !== "files" && error.param !== "text" ? error.message : undefined} />
        {sent ? (
          <p role="status" className="text-sm text-emerald-800">
            {sent}
          </p>
        ) : null}
        <Button type="submit" busy={pending} disabled={pending}>
          {title}
        </Button>
      </form>
    </Card>
  );
}

function AcceptCard({ claimId, amount, currency, words }: { claimId: string; amount: number; currency: string; words: DisputeWords["accept"] }) {
  const accept = useOnceMutation(acceptClaimAction);
  const [confirming, setConfirming] = useState(false);
  const error = actionError(accept.data, accept.error);
  const { t } = useWords();
  const w = t.claimDetail;
  return (
    <Card title={words.title} id="accept-claim">
      <p className="mb-3 text-sm text-slate-600">
        {w.concede} <Money amount={amount} currency={currency} /> {words.body}
      </p>
      {confirming ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" busy={accept.isPending} disabled={accept.isPending} onClick={() => accept.mutate([claimId])}>
            {words.confirm}
          </Button>
          <Button variant="secondary" disabled={accept.isPending} onClick={() => setConfirming(false)}>
            {words.keep}
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {words.button}
        </Button>
      )}
      <div className="mt-3">
        <FormError message={error ? t.common.apiError(error.message, error.code) : undefined} />
      </div>
    </Card>
  );
}

function SimulateClaimCard({ claimId, open, words }: { claimId: string; open: boolean; words: DisputeWords }) {
  const simulate = useOnceMutation(simulateClaimAction);
  const result = simulate.data;
  const { t } = useWords();
  return (
    <Card title={t.common.sandboxSimulation} id="simulate-claim">
      <p className="mb-3 text-sm text-slate-600">{words.simulate}</p>
      <SimulateButtons
        simulations={[
          { action: "won", label: words.won, enabled: open },
          { action: "lost", label: words.lost, enabled: open },
        ]}
        busy={simulate.isPending}
        pendingAction={simulate.variables?.[1]}
        error={result && !result.ok ? t.common.apiError(result.error.message, result.error.code) : simulate.error?.message}
        onSimulate={(action) => simulate.mutate([claimId, action as "won" | "lost"])}
      />
    </Card>
  );
}
