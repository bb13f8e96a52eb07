"use client";
import Link from "next/link";
import { useState } from "react";
import { confirmTotpAction, disableTotpAction } from "@/server/actions/account";
import { actionError } from "@/components/dashboard/use-dashboard-data";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, FormError, Input } from "@/components/ui/field";
import type { ActionResult } from "@/lib/dashboard/action-result";

type Props = { state: "pending"; secret: string; uri: string; qr: string } | { state: "enabled"; canDisable: boolean };

export function TwoFactorView(props: Props) {
  // Held here, not in Enroll: enrolling renews the session cookie, which refreshes the page (now
  // "enabled"); the codes shown once must survive that.
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} />;
  return props.state === "pending" ? <Enroll secret={props.secret} uri={props.uri} qr={props.qr} onEnabled={setCodes} /> : <Enabled canDisable={props.canDisable} />;
}

function useAction<T>(run: (code: string) => Promise<ActionResult<T>>) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult<T> | undefined>();
  const [failure, setFailure] = useState<Error | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      setResult(await run(code));
      setFailure(null);
    } catch (err) {
      setFailure(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return { code, setCode, busy, result, error: actionError(result, failure), submit };
}

function Enroll({ secret, uri, qr, onEnabled }: { secret: string; uri: string; qr: string; onEnabled: (codes: string[]) => void }) {
  const a = useAction(async (code) => {
    const r = await confirmTotpAction({ code });
    if (r.ok) onEnabled(r.data.recoveryCodes);
    return r;
  });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">Scan this code with an authenticator app (any app for TOTP codes), then enter the 6-digit code it shows.</p>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn on the server */}
      <img src={qr} alt="QR code of your two-factor secret" width={192} height={192} className="rounded border border-slate-200" />
      <div>
        <p className="text-sm font-medium text-slate-800">Or enter the secret by hand</p>
        <p className="mt-1 flex flex-wrap items-center gap-2">
          <code data-testid="totp-secret" className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">
            {secret}
          </code>
          <CopyButton value={secret} />
        </p>
        <details className="mt-2 text-xs text-slate-600">
          <summary className="cursor-pointer">Set-up link (otpauth://)</summary>
          <code data-testid="totp-uri" className="mt-1 block break-all font-mono">
            {uri}
          </code>
        </details>
      </div>
      <form onSubmit={a.submit} className="space-y-3" noValidate>
        <FormError message={a.error && a.error.param !== "code" ? a.error.message : null} />
        <Field label="Code from your app" error={a.error?.param === "code" ? a.error.message : null}>
          {(p) => <Input {...p} name="code" inputMode="numeric" autoComplete="one-time-code" value={a.code} onChange={(e) => a.setCode(e.target.value)} />}
        </Field>
        <Button type="submit" busy={a.busy}>
          Turn on two-factor sign-in
        </Button>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-4">
      <p role="status" className="font-medium text-emerald-800">
        Two-factor sign-in is on.
      </p>
      <div role="region" aria-label="Recovery codes" className="rounded-md border border-amber-300 bg-amber-50 p-4">
        <p className="font-medium text-amber-950">Recovery codes</p>
        <p className="mt-1 text-sm text-amber-900">Each code signs you in once if you lose your app. Store them now: they are shown only once.</p>
        <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm text-slate-900">
          {codes.map((c) => (
            <li key={c} data-testid="recovery-code">
              {c}
            </li>
          ))}
        </ul>
        <div className="mt-3">
          <CopyButton value={codes.join("\n")} />
        </div>
      </div>
      <Link href="/dashboard" className="inline-block rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700">
        Continue to the dashboard
      </Link>
    </div>
  );
}

function Enabled({ canDisable }: { canDisable: boolean }) {
  const a = useAction((code) => disableTotpAction({ code }));
  if (a.result?.ok) {
    return (
      <p role="status" className="text-sm text-slate-800">
        Two-factor sign-in is off. Reload this page to set it up again.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <p role="status" className="font-medium text-emerald-800">
        Two-factor sign-in is on.
      </p>
      {canDisable ? (
        <form onSubmit={a.submit} className="space-y-3" noValidate>
          <FormError message={a.error && a.error.param !== "code" ? a.error.message : null} />
          <Field label="Current code or a recovery code" error={a.error?.param === "code" ? a.error.message : null}>
            {(p) => <Input {...p} name="code" autoComplete="one-time-code" value={a.code} onChange={(e) => a.setCode(e.target.value)} />}
          </Field>
          <Button type="submit" variant="danger" busy={a.busy}>
            Turn off two-factor sign-in
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-600">Your role must keep it on in production.</p>
      )}
    </div>
  );
}
