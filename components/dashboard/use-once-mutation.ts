"use client";
// A dashboard mutation that moves money, protected against a double submit: every call carries
// this form instance's key (lib/dashboard/once.ts), renewed once an answer arrives. Two clicks
// before the answer, or a retry after a failed call, reuse the key and get the first run's answer.
import { useRef } from "react";
import { useDashboardMutation } from "@/components/dashboard/use-dashboard-data";

function newFormKey(): string {
  // getRandomValues works outside secure contexts too (randomUUID does not).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `form_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function useOnceMutation<A extends unknown[], R>(action: (...args: [...A, string?]) => Promise<R>) {
  const key = useRef<string | null>(null);
  return useDashboardMutation<A, R>(async (...args: A) => {
    key.current ??= newFormKey();
    const formKey = key.current;
    const r = await action(...args, formKey);
    // Answered (done or refused): the next submit is a new request. A call that threw (network)
    // keeps the key, so trying again replays instead of acting twice.
    if (key.current === formKey) key.current = newFormKey();
    return r;
  });
}
