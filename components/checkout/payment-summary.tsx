// The head of a provider's page (the sandbox's, a real provider's instructions): what to pay, by
// which method for which order, the status, the deadline while pending, and the live status
// that moves on to the result page.
import type { Messages } from "@/lib/i18n/messages";
import { StatusBadge } from "@/components/checkout/status-badge";
import { LiveStatus } from "@/components/checkout/live-status";

type Props = { t: Messages; title: string; amount: string; railName: string; order: string; txId: string; status: string; deadline: string; resultUrl: string };

export function PaymentSummary({ t, title, amount, railName, order, txId, status, deadline, resultUrl }: Props) {
  return (
    <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm print:border-0 print:p-0 print:shadow-none">
      <h1 id="pay-title" className="text-base font-medium text-slate-700">
        {title}
      </h1>
      <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900" data-testid="amount">
        {amount}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {railName} · {t.order} <span className="font-mono">{order}</span>
      </p>
      <p className="mt-3">
        <span className="sr-only">{t.status}: </span>
        <StatusBadge status={status} label={t.statusLabel[status] ?? status} />
      </p>
      {status === "pending" ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="pay-before">
          {t.payBefore(deadline)}
        </p>
      ) : null}
      <LiveStatus txId={txId} status={status} checkingLabel={t.followsLive} noScriptLabel={t.noScriptStatus} goTo={resultUrl} />
    </section>
  );
}
