"use client";
// One claim, live. For an open chargeback or PIX MED claim: the evidence sent so far (files to
// download), a form to send more before dueBy, the concession ("Accept chargeback", "Return the
// PIX") behind a confirmation, and in the sandbox the outcome buttons (won needs evidence: the
// API's rule, shown as its error). A MED's words are the PIX rules': the payer's bank blocked the
// amount and decides to release it or return it to the payer, with no fee.
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
import { claimReasonWord, claimTitleReason, fileTypeWord } from "@/components/dashboard/plain-words";
import { useTimes } from "@/components/ui/time-zone";
import { claimKindLabel } from "@/components/dashboard/payment-labels";
import { claimStatusOf } from "@/components/dashboard/status-words";
import { useQueryClient } from "@tanstack/react-query";
import { EVIDENCE_FILE_LIMIT, EVIDENCE_FILES_PER_REQUEST, type claim } from "@/lib/claims/schema";
import { DueCountdown } from "@/components/ui/due-countdown";

export type Claim = z.infer<typeof claim>;

type DisputeKind = "chargeback" | "pix_med";
const DISPUTE_WORDS: Record<DisputeKind, { accept: { title: string; body: string; button: string; confirm: string; keep: string }; simulate: string; won: string; lost: string }> = {
  chargeback: {
    accept: { title: "Accept the chargeback", body: "and the chargeback fee leave your balance now.", button: "Accept chargeback…", confirm: "Yes, accept and lose it", keep: "Keep disputing" },
    simulate: "Decide this test chargeback as the buyer's bank would. Won needs evidence sent before the due date.",
    won: "Simulate won",
    lost: "Simulate lost",
  },
  pix_med: {
    accept: { title: "Return the PIX", body: "blocked by the payer's bank goes back to the payer now (no fee).", button: "Return the PIX…", confirm: "Yes, return it to the payer", keep: "Keep defending" },
    simulate: "Decide this test MED as the payer's bank would: release the blocked amount to you, or return it to the payer. Released needs a defence sent before the due date.",
    won: "Simulate released",
    lost: "Simulate returned",
  },
};
const disputeKind = (kind: string): DisputeKind | null => (kind === "chargeback" || kind === "pix_med" ? kind : null);

export function ClaimDetailView({ environment, initial, canRespond, canSimulate }: { environment: string; initial: { claim: Claim }; canRespond: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "claim", { id: initial.claim.id }, initial, 5_000);
  const c = data.claim;
  const dispute = disputeKind(c.kind);
  const open = dispute !== null && c.status === "open";
  const windowOpen = open && (!c.dueBy || Date.parse(c.dueBy) > Date.now());
  return (
    <>
      <MoneyRecordHeader
        href="/dashboard/claims"
        label="Refunds and chargebacks"
        current={claimTitle(c)}
        id={c.id}
        amount={c.amount}
        currency={c.currency}
        status={c.status}
        lead={
          <span data-testid="claim-title">
            {claimKindLabel(c.kind)} on <Money amount={c.amount} currency={c.currency} />
            {claimTitleReason(c.reason) ? ` — ${claimTitleReason(c.reason)}` : null}
          </span>
        }
        statusOf={claimStatusOf(c.kind)}
        statusTestId="claim-status"
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Details" id="claim-details">
            <DescriptionList
              items={[
                ["Kind", claimKindLabel(c.kind)],
                ["Amount", <Money key="a" amount={c.amount} currency={c.currency} />],
                ["USD", <Money key="u" amount={c.amountUsd} currency="USD" />],
                ["Payment", <a key="p" className="text-indigo-700 underline underline-offset-2" href={`/dashboard/payments/${c.transactionId}`} title={c.transactionId}>View the payment</a>],
                ["Reason", c.reason ? <Term key="r" tech={c.reason}>{claimReasonWord(c.reason)}</Term> : "—"],
                ["Evidence due by", c.dueBy ? (open ? <DueCountdown key="d" dueIso={c.dueBy} label="Evidence due" /> : formatDateTime(c.dueBy)) : "—"],
                ["Opened", formatDateTime(c.createdAt)],
                ["Resolved", formatDateTime(c.resolvedAt)],
              ]}
            />
          </Card>
          {dispute ? <EvidenceList claim={c} /> : null}
          {canRespond && windowOpen ? <EvidenceForm claimId={c.id} dueBy={c.dueBy} /> : null}
          {open && !windowOpen ? (
            <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Evidence was due by {formatDateTime(c.dueBy)}; the buyer&apos;s bank decides with what was sent before then.
            </p>
          ) : null}
        </div>
        <div className="space-y-6">
          {canRespond && open ? <AcceptCard claimId={c.id} amount={c.amount} currency={c.currency} words={DISPUTE_WORDS[dispute].accept} /> : null}
          {canSimulate && environment === "sandbox" && dispute ? <SimulateClaimCard claimId={c.id} open={open} words={DISPUTE_WORDS[dispute]} /> : null}
        </div>
      </div>
    </>
  );
}

/** What the claim is, in words: "Chargeback on R$ 100,00 — Fraud" (its id is offered to copy). */
function claimTitle(c: Claim): string {
  const reason = claimTitleReason(c.reason);
  return `${claimKindLabel(c.kind)} on ${formatMoney(c.amount, c.currency)}${reason ? ` — ${reason}` : ""}`;
}

function EvidenceList({ claim: c }: { claim: Claim }) {
  const { formatDateTime } = useTimes();
  return (
    <Card title="Evidence" id="claim-evidence">
      {c.evidence.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing sent yet. Without evidence the buyer&apos;s bank decides for the buyer.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" aria-label="Evidence sent">
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
                {e.kind === "file" ? <Term tech={e.contentType ?? ""}>{fileTypeWord(e.contentType ?? "")}</Term> : null}
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

function EvidenceForm({ claimId, dueBy }: { claimId: string; dueBy: string | null }) {
  const { formatDateTime } = useTimes();
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
        setError({ param: "files", message: large ? `${large.name} is ${(large.size / 1024 / 1024).toFixed(1)} MiB; each file may hold at most 5 MiB.` : `Send at most ${EVIDENCE_FILES_PER_REQUEST} files at a time.` });
        return;
      }
      const res = await fetch(`/dashboard/api/claims/${claimId}/evidence`, { method: "POST", body });
      const out = await res.json().catch(() => null);
      if (!res.ok) {
        setError({ message: out?.error?.message ?? `Upload failed (${res.status})`, param: out?.error?.param });
        return;
      }
      form.reset();
      setSent(`Sent: ${out.claim.evidence.length} item(s) of evidence on file.`);
      await qc.invalidateQueries({ queryKey: ["dashboard"] });
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : "Upload failed" });
    } finally {
      setPending(false);
    }
  }
  return (
    <Card title="Send evidence" id="send-evidence">
      <form
        aria-label="Send evidence"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
      >
        <p className="text-sm text-slate-600">PDF, PNG or JPEG files up to 5 MiB each (at most 5 at a time), and your account of the sale.{dueBy ? ` Taken until ${formatDateTime(dueBy)}.` : ""}</p>
        <Field label="Files" error={error?.param === "files" ? error.message : undefined}>
          {(p) => <Input {...p} type="file" name="files" multiple accept="application/pdf,image/png,image/jpeg" />}
        </Field>
        <Field label="Statement" hint="What was sold, when it was delivered, how the buyer agreed." error={error?.param === "text" ? error.message : undefined}>
          {(p) => <Textarea {...p} name="text" rows={4} maxLength={20_000} />}
        </Field>
        <FormError message={error && error.param !== "files" && error.param !== "text" ? error.message : undefined} />
        {sent ? (
          <p role="status" className="text-sm text-emerald-800">
            {sent}
          </p>
        ) : null}
        <Button type="submit" busy={pending} disabled={pending}>
          Send evidence
        </Button>
      </form>
    </Card>
  );
}

function AcceptCard({ claimId, amount, currency, words }: { claimId: string; amount: number; currency: string; words: (typeof DISPUTE_WORDS)[DisputeKind]["accept"] }) {
  const accept = useOnceMutation(acceptClaimAction);
  const [confirming, setConfirming] = useState(false);
  const error = actionError(accept.data, accept.error);
  return (
    <Card title={words.title} id="accept-claim">
      <p className="mb-3 text-sm text-slate-600">
        Concede without a dispute: <Money amount={amount} currency={currency} /> {words.body}
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
        <FormError message={error?.message} />
      </div>
    </Card>
  );
}

function SimulateClaimCard({ claimId, open, words }: { claimId: string; open: boolean; words: (typeof DISPUTE_WORDS)[DisputeKind] }) {
  const simulate = useOnceMutation(simulateClaimAction);
  const result = simulate.data;
  return (
    <Card title="Sandbox simulation" id="simulate-claim">
      <p className="mb-3 text-sm text-slate-600">{words.simulate}</p>
      <SimulateButtons
        simulations={[
          { action: "won", label: words.won, enabled: open },
          { action: "lost", label: words.lost, enabled: open },
        ]}
        busy={simulate.isPending}
        pendingAction={simulate.variables?.[1]}
        error={result && !result.ok ? result.error.message : simulate.error?.message}
        onSimulate={(action) => simulate.mutate([claimId, action as "won" | "lost"])}
      />
    </Card>
  );
}
