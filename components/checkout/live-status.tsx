// Keeps a page current while its payment is pending (a result page, a provider's instructions
// page): public/buyer/islands.js ([data-live-status]) polls a public status (status only,
// nothing else) and, when it changes, fetches the page again and swaps its content or, with
// `goTo`, moves on to that page (the result).
export function LiveStatus({ txId, status, checkingLabel, statusUrl, goTo }: { txId: string; status: string; checkingLabel: string; statusUrl?: string; goTo?: string }) {
  return status === "pending" ? (
    <p className="mt-2 text-sm text-slate-600 print:hidden" data-testid="live-status" data-live-status="" data-status={status} data-status-url={statusUrl ?? `/c/${txId}/status`} data-go-to={goTo}>
      {checkingLabel}
    </p>
  ) : null;
}
