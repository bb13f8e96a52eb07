"use client";
import { useActionState } from "react";
import { signInAction, type SignInState } from "@/app/dashboard/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";

export function SignInForm() {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      <FormError message={state.error} />
      <Field label="Email">{(p) => <Input {...p} name="email" type="email" autoComplete="username" required defaultValue={state.email} />}</Field>
      <Field label="Password">{(p) => <Input {...p} name="password" type="password" autoComplete="current-password" required />}</Field>
      <Button type="submit" busy={pending} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
