// The Developers page's view of the recent-requests log that lib/platform/http/request-log.ts
// records: a merchant's own entries, newest first, answers redacted as they were stored.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { Environment } from "@/lib/generated/prisma/enums";

/** The merchant's most recent requests in one environment, newest first. */
export async function listRecentRequests(scope: { merchantId: string; environment: Environment }, limit = 50) {
  const rows = await db().apiRequestLog.findMany({
    where: { merchantId: scope.merchantId, environment: scope.environment },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(200, Math.max(1, limit)),
    omit: { answer: true },
  });
  return rows.map((r) => ({ id: r.id, method: r.method, path: r.path, status: r.status, requestId: r.requestId, keyId: r.keyId, durationMs: r.durationMs, createdAt: r.createdAt.toISOString() }));
}

/** One logged request with its (redacted) answer, as the Developers page opens it. */
export async function getLoggedRequest(scope: { merchantId: string; environment: Environment }, id: string) {
  const r = await db().apiRequestLog.findFirst({ where: { id, merchantId: scope.merchantId, environment: scope.environment } });
  if (!r) throw new AppError("route_not_found", "No such request in the last 7 days.");
  return { request: { id: r.id, method: r.method, path: r.path, status: r.status, requestId: r.requestId, keyId: r.keyId, durationMs: r.durationMs, createdAt: r.createdAt.toISOString(), answer: (r.answer ?? null) as unknown } };
}
