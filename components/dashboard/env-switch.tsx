"use client";
import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { setEnvironmentAction } from "@/server/actions/session";
import { useWords } from "@/components/dashboard/i18n/words";

/** The sandbox / production toggle of the header (like a test-mode switch). */
export function EnvironmentSwitch({ environment }: { environment: "sandbox" | "production" }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const sandbox = environment === "sandbox";
  const w = useWords().t.shell;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={sandbox}
      aria-label={w.sandboxMode}
      disabled={pending}
      onClick={() =>
        start(async () => {
          const r = await setEnvironmentAction(sandbox ? "production" : "sandbox");
          if (r.ok) {
            qc.removeQueries({ queryKey: ["dashboard"] });
            router.refresh();
          }
        })
      }
      className="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60"
    >
      <span aria-hidden className={`relative inline-block h-5 w-9 rounded-full transition-colors ${sandbox ? "bg-amber-500" : "bg-slate-300"}`}>
        <span className={`absolute top-0.5 size-4 rounded-full bg-white shadow transition-all ${sandbox ? "left-4.5" : "left-0.5"}`} />
      </span>
      <span>{sandbox ? w.sandbox : w.production}</span>
    </button>
  );
}
