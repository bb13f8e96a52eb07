"use client";
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn";
import { plainMessage } from "@/components/ui/plain-message";
import { Term } from "@/components/ui/term";

const control = "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-1 focus:outline-indigo-600 disabled:bg-slate-100";

/** A labelled control with its hint and its error (the API's message for this field). */
export function Field({ label, tech, error, hint, children, className }: { label: string; /** The technical name, in a tooltip on the label (for developers). */ tech?: string; error?: string | null; hint?: ReactNode; className?: string; children: (props: { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string }) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {tech ? <Term tech={tech}>{label}</Term> : label}
      </label>
      {children({ id, ...(error ? { "aria-invalid": true } : {}), "aria-describedby": describedBy })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {plainMessage(error)}
        </p>
      ) : null}
    </div>
  );
}

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(control, props["aria-invalid"] ? "border-red-500" : "border-slate-300", className)} {...props} />;
}

export function Select({ className, children, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={cn(control, props["aria-invalid"] ? "border-red-500" : "border-slate-300", className)} {...props}>
      {children}
    </select>
  );
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(control, props["aria-invalid"] ? "border-red-500" : "border-slate-300", className)} {...props} />;
}

/** A form-level error (one not tied to a field). */
/** A form's error not tied to one field, in plain words (an API message loses its backticks). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {plainMessage(message)}
    </p>
  );
}
