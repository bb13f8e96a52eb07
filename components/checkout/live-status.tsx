"use client";
// Keeps a page current while its payment is pending (a result page, a provider's instructions
// page): polls a public status (status only, nothing else) and, when it
// changes, re-renders the page on the server or, with `goTo`, moves on to that page (the
// result), in both cases without reloading the document.
import { useEffect } from "react";
import { useRouter } from "next/navigation";

export function LiveStatus({ txId, status, checkingLabel, statusUrl, goTo }: { txId: string; status: string; checkingLabel: string; statusUrl?: string; goTo?: string }) {
  const router = useRouter();
  useEffect(() => {
    if (status !== "pending") return;
    let stopped = false;
    const poll = async () => {
      if (stopped) return;
      try {
        const res = await fetch(statusUrl ?? `/c/${txId}/status`, { cache: "no-store" });
        if (res.ok && ((await res.json()) as { status: string }).status !== status) return goTo ? router.replace(goTo) : router.refresh();
      } catch {
        // Offline for a moment: try again on the next tick.
      }
      timer = setTimeout(poll, 2000);
    };
    let timer = setTimeout(poll, 2000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [txId, status, router, statusUrl, goTo]);
  return status === "pending" ? (
    <p className="mt-2 text-sm text-slate-600 print:hidden" data-testid="live-status">
      {checkingLabel}
    </p>
  ) : null;
}
