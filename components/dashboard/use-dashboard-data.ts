"use client";
// Live data of a page: first paint comes from the server component (initialData), then TanStack
// Query keeps it fresh from /dashboard/api/<resource>. The environment is part of every key so
// switching sandbox/production never shows one's data under the other.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ActionError, ActionResult } from "@/lib/dashboard/action-result";
import type { LoaderData, LoaderParams, Resource } from "@/server/dashboard-loaders";

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

export async function fetchDashboardData<R extends Resource>(resource: R, params: LoaderParams<R> = {}): Promise<LoaderData<R>> {
  const res = await fetch(dataUrl(resource, params as Record<string, string | number | undefined>), { headers: { accept: "application/json" }, cache: "no-store" });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new DashboardFetchError(body?.error?.message ?? `Request failed (${res.status})`, res.status, body?.error?.code);
  return body as LoaderData<R>;
}

/**
 * A loader's data (server/dashboard-loaders.ts) kept fresh by TanStack Query. The resource name
 * types the parameters and the answer: a page cannot read a shape its loader does not return.
 */
export function useDashboardData<R extends Resource>(
  environment: string,
  resource: R,
  params: LoaderParams<R>,
  opts: { initialData?: LoaderData<R>; refetchInterval?: number | false; enabled?: boolean } = {},
) {
  return useQuery<LoaderData<R>>({
    queryKey: ["dashboard", environment, resource, params],
    queryFn: () => fetchDashboardData(resource, params),
    initialData: opts.initialData,
    refetchInterval: opts.refetchInterval ?? false,
    enabled: opts.enabled ?? true,
  });
}

/** A page's live data that always has a value: the server's first paint until a refetch lands. */
export function useLiveData<R extends Resource>(environment: string, resource: R, params: LoaderParams<R>, initial: LoaderData<R>, refetchInterval: number | false = 3_000) {
  const q = useDashboardData(environment, resource, params, { initialData: initial, refetchInterval });
  return { ...q, data: (q.data ?? initial) as LoaderData<R> };
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
