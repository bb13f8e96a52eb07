"use client";
// Live data of a page: first paint comes from the server component (initialData), then TanStack
// Query keeps it fresh from /dashboard/api/<resource>. The environment is part of every key so
// switching sandbox/production never shows one's data under the other.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ActionError, ActionResult } from "@/lib/dashboard/action-result";

export class DashboardFetchError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string) {
    super(message);
  }
}

export function dataUrl(resource: string, params: Record<string, string | number | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") qs.set(k, String(v));
  const s = qs.toString();
  return `/dashboard/api/${resource}${s ? `?${s}` : ""}`;
}

export async function fetchDashboardData<T>(resource: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
  const res = await fetch(dataUrl(resource, params), { headers: { accept: "application/json" }, cache: "no-store" });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new DashboardFetchError(body?.error?.message ?? `Request failed (${res.status})`, res.status, body?.error?.code);
  return body as T;
}

export function useDashboardData<T>(
  environment: string,
  resource: string,
  params: Record<string, string | number | undefined>,
  opts: { initialData?: T; refetchInterval?: number | false; enabled?: boolean } = {},
) {
  return useQuery<T>({
    queryKey: ["dashboard", environment, resource, params],
    queryFn: () => fetchDashboardData<T>(resource, params),
    initialData: opts.initialData,
    refetchInterval: opts.refetchInterval ?? false,
    enabled: opts.enabled ?? true,
  });
}

/** A page's live data that always has a value: the server's first paint until a refetch lands. */
export function useLiveData<T>(environment: string, resource: string, params: Record<string, string | number | undefined>, initial: T, refetchInterval: number | false = 3_000) {
  const q = useDashboardData<T>(environment, resource, params, { initialData: initial, refetchInterval });
  return { ...q, data: q.data ?? initial };
}

/**
 * A server action as a TanStack mutation: `isPending` for the button, the action's result (data
 * or the API's error) in `onSuccess`, and every dashboard query refetched once it settles.
 */
export function useDashboardMutation<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation<R, Error, A>({
    mutationFn: (args) => action(...args),
    onSettled: () => qc.invalidateQueries({ queryKey: ["dashboard"] }),
  });
}

/** A mutation's outcome as one error shape: the action's refusal, or a failed call's message. */
export function actionError(data: ActionResult<unknown> | undefined, error: Error | null): ActionError | null {
  if (data && !data.ok) return data.error;
  return error ? { code: "internal_error", message: error.message } : null;
}
