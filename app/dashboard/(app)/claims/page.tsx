import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { dashboardTitle } from "@/server/dashboard-locale";
import { listClaims, CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/list-claims";
import { ClaimsView } from "@/components/dashboard/pages/claims";

export const generateMetadata = (): Promise<Metadata> => dashboardTitle((t) => t.claims);

export default async function ClaimsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const pick = <T extends string>(v: unknown, allowed: readonly T[]) => (typeof v === "string" && (allowed as readonly string[]).includes(v) ? (v as T) : undefined);
  const params: Record<string, string> = {};
  const kind = pick(raw.kind, CLAIM_KINDS);
  const status = pick(raw.status, CLAIM_STATUSES);
  if (kind) params.kind = kind;
  if (status) params.status = status;
  if (typeof raw.offset === "string") params.offset = raw.offset;
  const initial = await listClaims(d.ctx, { kind, status, offset: params.offset, limit: 25 });
  return <ClaimsView environment={d.environment} params={{ ...params, limit: "25" }} initial={initial} />;
}
