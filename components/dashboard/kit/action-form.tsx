"use client";
// The dashboard's one form for a server action (mutation, error per field, pending state).
// - Once: every submit carries the form's key (useOnceMutation), so a double click or a retry
//   after a lost answer acts once.
// - Errors: the API's error shows next to the field it names (focused), in plain words, and
//   goes away as soon as that field is edited; any other error shows above the button.
// - Review: with `review`, submitting shows what will happen with Confirm / Back first (money
//   leaving: refunds, payouts, withdrawals); the fields are locked meanwhile and kept on Back.
// - After success: `after: "reset"` empties the fields (a second click cannot repeat the same
//   amount by accident); `after: "lock"` keeps the form disabled with the result until the user
//   asks for another (a secret shown once must not be replaced by a second click).
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { actionError } from "@/components/dashboard/use-dashboard-data";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { plainMessage } from "@/components/ui/plain-message";
import { Button, type ButtonProps } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";

export type FormKit = {
  /** The error to show next to the field named `param`, if the last answer named it. */
  error: (param: string) => string | undefined;
  pending: boolean;
};

/** An action's own arguments: without the form key the once-protected actions take last. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAction = (...args: any[]) => Promise<ActionResult<any>>;
type ArgsOf<F extends AnyAction> = Parameters<F> extends [...infer A, (string | undefined)?] ? A : Parameters<F>;
type DataOf<F extends AnyAction> = Awaited<ReturnType<F>> extends ActionResult<infer T> ? T : never;

type Props<F extends AnyAction, A extends unknown[] = ArgsOf<F>, T = DataOf<F>> = {
  label: string;
  action: F;
  toArgs: (form: FormData) => [...A];
  /** A check in the browser before anything is sent (e.g. an amount that must be given). */
  check?: (form: FormData) => { param: string; message: string } | null;
  /** The params that have a field in this form (their errors show there). */
  fields: readonly string[];
  /** Field labels, to name a field in plain words inside a message. */
  labels?: Record<string, string>;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  review?: (args: A) => ReactNode;
  reviewLabel?: string;
  confirmLabel?: string;
  confirmVariant?: ButtonProps["variant"];
  /** The success message; `again` ends a locked form's result (e.g. "I have stored the secret"). */
  done?: (data: T, again: () => void) => ReactNode;
  after?: "reset" | "lock";
  /** The button that unlocks a locked form; null when `done` offers its own way on. */
  againLabel?: string | null;
  onDone?: (data: T) => void;
  className?: string;
  children: (f: FormKit) => ReactNode;
};

export function ActionForm<F extends AnyAction>(props: Props<F>) {
  type A = ArgsOf<F>;
  const { label, action, toArgs, fields, labels = {}, submitLabel, review, done, after = "reset" } = props;
  const mutation = useOnceMutation<A, ActionResult<DataOf<F>>>(action as (...args: [...A, string?]) => Promise<ActionResult<DataOf<F>>>);
  const form = useRef<HTMLFormElement>(null);
  const [reviewing, setReviewing] = useState<A | null>(null);
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [locked, setLocked] = useState(false);
  const [local, setLocal] = useState<{ param: string; message: string } | null>(null);
  // The field to focus once the answer has rendered: until then the fieldset is still disabled
  // (pending), and a disabled control cannot take the focus.
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const error = local ? { code: "invalid_request", ...local } : actionError(mutation.data, mutation.error);
  const fieldOf = (param: string | undefined) => (param && fields.includes(param) ? param : undefined);
  const errorField = fieldOf(error?.param);
  const message = plainMessage(error?.message, labels);
  const result = mutation.data?.ok ? mutation.data.data : undefined;

  async function run(args: A) {
    setEdited(new Set());
    setLocal(null);
    const r = await mutation.mutateAsync(args).catch(() => null);
    setReviewing(null);
    if (r?.ok) {
      if (after === "reset") form.current?.reset();
      if (after === "lock") setLocked(true);
      props.onDone?.(r.data);
    } else if (r && !r.ok) {
      // Where the problem is: the field the API named.
      setFocusTarget(fieldOf(r.error.param) ?? null);
    }
  }

  useEffect(() => {
    if (!focusTarget || mutation.isPending || reviewing !== null) return;
    const target = form.current?.elements.namedItem(focusTarget);
    if (target instanceof HTMLElement) target.focus();
    setFocusTarget(null);
  }, [focusTarget, mutation.isPending, reviewing]);

  const again = () => {
    setLocked(false);
    mutation.reset();
    form.current?.reset();
  };

  const kit: FormKit = {
    error: (param) => (errorField === param && !edited.has(param) ? message : undefined),
    pending: mutation.isPending,
  };

  return (
    <div className={props.className}>
      <form
        ref={form}
        aria-label={label}
        noValidate
        onInput={(e) => {
          const name = (e.target as HTMLInputElement).name;
          if (name && !edited.has(name)) setEdited(new Set([...edited, name]));
        }}
        onSubmit={(e) => {
          e.preventDefault();
          if (mutation.isPending || locked) return;
          const data = new FormData(e.currentTarget);
          const problem = props.check?.(data) ?? null;
          setLocal(problem);
          setEdited(new Set());
          if (problem) {
            const target = e.currentTarget.elements.namedItem(problem.param);
            if (target instanceof HTMLElement) target.focus();
            return;
          }
          const args = toArgs(data);
          if (review) setReviewing(args);
          else void run(args);
        }}
      >
        <fieldset disabled={reviewing !== null || locked || mutation.isPending} className="min-w-0 space-y-3">
          {props.children(kit)}
          {error && !errorField && !reviewing ? <FormError message={message} /> : null}
          {reviewing ? null : (
            <Button type="submit" variant={props.submitVariant} busy={mutation.isPending && !review}>
              {submitLabel}
            </Button>
          )}
        </fieldset>
      </form>
      {reviewing ? (
        <div role="group" aria-label={props.reviewLabel ?? `Review: ${label}`} className="mt-3 space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {review?.(reviewing)}
          {error && !errorField ? <FormError message={message} /> : null}
          <div className="flex flex-wrap gap-2">
            <Button autoFocus variant={props.confirmVariant ?? props.submitVariant} busy={mutation.isPending} onClick={() => void run(reviewing)}>
              {props.confirmLabel ?? "Confirm"}
            </Button>
            <Button variant="secondary" disabled={mutation.isPending} onClick={() => setReviewing(null)}>
              Back
            </Button>
          </div>
        </div>
      ) : null}
      {result !== undefined && done ? (
        <div role="status" className={cn("mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900")}>
          {done(result, again)}
        </div>
      ) : null}
      {locked && props.againLabel !== null ? (
        <Button className="mt-3" variant="secondary" onClick={again}>
          {props.againLabel ?? "Start another"}
        </Button>
      ) : null}
    </div>
  );
}
