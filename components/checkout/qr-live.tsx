// The counter page's live part (/qr/{token}): the countdown to the code's deadline and the
// polling of the order's public status (public/buyer/islands.js, [data-qr-live]). When the status
// (or whether it can still change) differs from what the page shows, or the countdown reaches
// zero, the page's content is fetched again. An order past its deadline whose payment is not
// settled yet (`live`) keeps being followed: a payer who paid at the last second still turns the
// screen paid.

/** 14:05, or 1:02:03 past an hour (islands.js counts down with the same format). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function QrLive({ status, live, statusUrl, remainingMs, expiresInLabel, checkingLabel, lateLabel }: { status: string; live: boolean; statusUrl: string; remainingMs: number | null; expiresInLabel: string; checkingLabel: string; lateLabel: string }) {
  return (
    <div data-qr-live="" data-status={status} data-live={String(live)} data-status-url={statusUrl} data-remaining-ms={remainingMs ?? undefined}>
      {status === "pending" && remainingMs !== null ? (
        <p className="mt-3 text-lg font-semibold text-slate-900">
          {expiresInLabel}{" "}
          <span role="timer" className="font-mono tabular-nums" data-testid="qr-countdown">
            {clock(remainingMs)}
          </span>
        </p>
      ) : null}
      {live ? <p className="mt-2 text-sm text-slate-600">{status === "pending" ? checkingLabel : lateLabel}</p> : null}
    </div>
  );
}
