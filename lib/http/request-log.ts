// The recent-requests log behind the dashboard's Developers page. Recording must cost the API
// next to nothing: an entry is pushed onto an in-process buffer and the buffer is written in one
// multi-row insert at most every FLUSH_MS, off the request path. A full buffer drops entries (the
// log is a convenience, never a record of money). Rows older than KEEP_MS are pruned now and
// then. Kept: method, path (no query string), status, request id, masked key id, duration and
// the JSON answer with its secrets redacted (lib/http/redact-answer.ts); never headers or the
// request's body.
import { isDatabaseUnavailable } from "@/lib/errors";
import { noteDatabaseOutage } from "@/lib/health/database-outage";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { redactAnswer } from "@/lib/http/redact-answer";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { singleton } from "@/lib/singleton";
import type { Environment } from "@/lib/generated/prisma/enums";

const FLUSH_MS = 250;
const MAX_BUFFER = 2_000;
const KEEP_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export type RequestLogEntry = { merchantId: string; environment: Environment; method: string; path: string; status: number; requestId: string; keyId: string; durationMs: number; answer?: unknown };

type Row = Omit<RequestLogEntry, "answer"> & { id: string; createdAt: Date; answer: Prisma.InputJsonValue | typeof Prisma.DbNull };

const state = singleton("request-log", () => ({ buffer: [] as Row[], timer: null as NodeJS.Timeout | null, lastPrune: 0 }));

/** Queues one entry; never throws, never waits. */
export function recordRequest(entry: RequestLogEntry): void {
  if (state.buffer.length >= MAX_BUFFER) return;
  // Redacted here, on the request's turn, so no secret ever waits in the buffer.
  const answer = redactAnswer(entry.answer);
  state.buffer.push({ ...entry, answer: answer === null ? Prisma.DbNull : (answer as Prisma.InputJsonValue), path: entry.path.slice(0, 300), durationMs: Math.round(entry.durationMs), id: newId("apiRequest"), createdAt: new Date() });
  if (!state.timer) {
    state.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
    state.timer.unref?.();
  }
}

export async function flushRequestLog(): Promise<void> {
  state.timer = null;
  const rows = state.buffer.splice(0);
  if (rows.length === 0) return;
  try {
    await db().apiRequestLog.createMany({ data: rows });
    if (Date.now() - state.lastPrune > PRUNE_EVERY_MS) {
      state.lastPrune = Date.now();
      await db().apiRequestLog.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - KEEP_MS) } } });
    }
  } catch (err) {
    if (isDatabaseUnavailable(err)) noteDatabaseOutage(err, { dropped: rows.length });
    else log.warn({ err: (err as Error).message, dropped: rows.length }, "request log write failed");
  }
}

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
