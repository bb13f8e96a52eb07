"use client";
import Link from "next/link";
import { acceptInviteAction } from "@/server/actions/team";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { Field, Input } from "@/components/ui/field";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/schema";

export function AcceptInviteForm({ token, email }: { token: string; email: string }) {
  return (
    <ActionForm
      label="Choose your password"
      action={acceptInviteAction}
      toArgs={(f) => [token, { password: String(f.get("password") ?? "") }]}
      check={(f) => (f.get("password") !== f.get("confirm") ? { param: "confirm", message: "The two passwords differ." } : null)}
      fields={["password", "confirm"]}
      labels={{ password: "New password" }}
      submitLabel="Set my password"
      after="lock"
      againLabel={null}
      done={() => (
        <span>
          Your password is set.{" "}
          <Link href={`/dashboard/sign-in?email=${encodeURIComponent(email)}`} className="font-medium underline underline-offset-2">
            Sign in
          </Link>
        </span>
      )}
    >
      {(f) => (
        <>
          {/* For password managers: the account this password belongs to. */}
          <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
          <Field label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={f.error("password")}>
            {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" />}
          </Field>
          <Field label="Repeat the password" error={f.error("confirm")}>
            {(p) => <Input {...p} name="confirm" type="password" autoComplete="new-password" />}
          </Field>
        </>
      )}
    </ActionForm>
  );
}
