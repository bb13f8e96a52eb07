"use client";
import { KeyRound } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";
import { Button } from "@/components/ui/button";

/** A secret the server hands out once (webhook signing secret, rolled secret key). */
export function SecretReveal({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <div role="region" aria-label={label} className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="flex items-center gap-2 font-medium text-amber-950">
        <KeyRound aria-hidden className="size-4" /> {label}
      </p>
      <p className="mt-1 text-sm text-amber-900">Copy it now: it is shown only once and cannot be retrieved later.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid="revealed-secret" className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-amber-200">
          {secret}
        </code>
        <CopyButton value={secret} />
        <Button variant="ghost" size="sm" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}
