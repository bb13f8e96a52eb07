"use client";
// The counter page's live part (/qr/{token}): the countdown to the code's deadline and the
// polling of the order's public status. When the status (or whether it can still change) differs
// from what the page shows, or the countdown reaches zero, the server renders the page again.
// An order past its deadline whose payment is not settled yet (`live`) keeps being followed: a
// payer who paid at the last second still turns the screen paid.
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";

/** 14:05, or 1:02:03 past an hour. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function QrLive({ status, live, statusUrl, remainingMs, expiresInLabel, checkingLabel, lateLabel }: { status: string; live: boolean; statusUrl: string; remainingMs: number | null; expiresInLabel: string; checkingLabel: string; lateLabel: string }) {
  const router = useRouter();
  const [left, setLeft] = useState(remainingMs);

  useEffect(() => {
    if (!live) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (stopped) return;
      try {
        const res = await fetch(statusUrl, { cache: "no-store" });
        if (res.ok) {
          const now = (await res.json()) as { status: string; live: boolean };
          if (now.status !== status || now.live !== live) return router.refresh();
        }
      } catch {
        // Offline for a moment: try again on the next tick.
      }
      timer = setTimeout(poll, status === "pending" ? 2000 : 4000);
    };
    timer = setTimeout(poll, 2000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [status, live, statusUrl, router]);

  useEffect(() => {
    if (remainingMs === null || status !== "pending") return;
    // Counted from this device's clock: the server gave the time left, not its own clock.
    const deadline = Date.now() + remainingMs;
    const tick = setInterval(() => {
      const ms = deadline - Date.now();
      setLeft(ms);
      if (ms <= 0) {
        clearInterval(tick);
        router.refresh();
      }
    }, 1000);
    return () => clearInterval(tick);
  }, [remainingMs, status, router]);

  return (
    <>
      {status === "pending" && left !== null ? (
        <p className="mt-3 text-lg font-semibold text-slate-900">
          {expiresInLabel}{" "}
          <span role="timer" className="font-mono tabular-nums" data-testid="qr-countdown">
            {clock(left)}
          </span>
        </p>
      ) : null}
      {live ? <p className="mt-2 text-sm text-slate-600">{status === "pending" ? checkingLabel : lateLabel}</p> : null}
    </>
  );
}
