// Keeps a page current while its payment is pending (a result page, a provider's instructions
// page): public/buyer/islands.js ([data-live-status]) polls a public status (status only,
// nothing else) and, when it changes, fetches the page again and swaps its content or, with
// `goTo`, moves on to that page (the result). Only script can keep that promise, so the sentence
// saying so is hidden until it runs ([data-with-script]); without script the page says it does
// not update itself and, given `reloadHref`, offers a link to look again.
export function LiveStatus({ txId, status, checkingLabel, noScriptLabel, statusUrl, goTo, reload }: { txId: string; status: string; checkingLabel: string; noScriptLabel: string; statusUrl?: string; goTo?: string; reload?: { href: string; label: string } }) {
  return status === "pending" ? (
    <>
      <p hidden className="mt-2 text-sm text-slate-600 print:hidden" data-testid="live-status" data-with-script="" data-live-status="" data-status={status} data-status-url={statusUrl ?? `/c/${txId}/status`} data-go-to={goTo}>
        {checkingLabel}
      </p>
      <noscript>
        <p className="mt-2 text-sm text-slate-700 print:hidden" data-testid="no-script-status">
          {noScriptLabel}{" "}
          {reload ? (
            <a href={reload.href} className="font-semibold text-blue-800 underline underline-offset-2">
              {reload.label}
            </a>
          ) : null}
        </p>
      </noscript>
    </>
  ) : null;
}
