"use client";
import { useActionState, useEffect, useState } from "react";
import { signInAction, type SignInState } from "@/server/actions/session";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";

export function SignInForm({ defaultEmail = "" }: { defaultEmail?: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  // Controlled, so the form's reset after each submit keeps them for the second step (the code).
  const [email, setEmail] = useState(defaultEmail);
  const [password, setPassword] = useState("");
  // A refused password is cleared, as an uncontrolled form would; it is kept only for the code step.
  useEffect(() => {
    if (!state.needCode) setPassword("");
  }, [state]);
  return (
    <form action={action} className="space-y-4" noValidate>
      <FormError message={state.error} />
      <Field label="Email">{(p) => <Input {...p} name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
      <Field label="Password">{(p) => <Input {...p} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
      {state.needCode ? (
        <Field label="Authentication code" hint="The 6-digit code from your authenticator app, or one of your recovery codes.">
          {(p) => <Input {...p} name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />}
        </Field>
      ) : null}
      <Button type="submit" busy={pending} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
