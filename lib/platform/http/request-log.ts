// The recent-requests log behind the dashboard's Developers page (read by lib/dashboard/request-log.ts). Recording must cost the API
// next to nothing: an entry is pushed onto an in-process buffer and the buffer is written in one
// multi-row insert at most every FLUSH_MS, off the request path. A full buffer drops entries (the
// log is a convenience, never a record of money). Rows older than KEEP_MS are pruned now and
// then. Kept: method, path (no query string), status, request id, masked key id, duration and
// the JSON answer with its secrets redacted (lib/platform/contract/redact-answer.ts); never headers or the
// request's body.
import { isDatabaseUnavailable } from "@/lib/platform/errors";
import { noteDatabaseOutage } from "@/lib/platform/health/database-outage";
import { db, sql } from "@/lib/platform/db";
import { redactedAnswerJson } from "@/lib/platform/contract/redact-answer";
import { newId } from "@/lib/platform/ids";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import type { Environment } from "@/lib/generated/prisma/enums";

const FLUSH_MS = 250;
const MAX_BUFFER = 2_000;
const KEEP_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export type RequestLogEntry = { merchantId: string; environment: Environment; method: string; path: string; status: number; requestId: string; keyId: string; durationMs: number; answer?: unknown };

/** `answer`: the redacted answer's JSON text, or null (lib/platform/contract/redact-answer.ts). */
/** `at`: when it was recorded, in epoch milliseconds. */
type Row = Omit<RequestLogEntry, "answer"> & { id: string; at: number; answer: string | null };

const state = singleton("request-log", () => ({ buffer: [] as Row[], timer: null as NodeJS.Timeout | null, lastPrune: 0 }));

/** Queues one entry; never throws, never waits. */
export function recordRequest(entry: RequestLogEntry): void {
  if (state.buffer.length >= MAX_BUFFER) return;
  // Redacted here, on the request's turn, so no secret ever waits in the buffer.
  state.buffer.push({ ...entry, answer: redactedAnswerJson(entry.answer), path: entry.path.slice(0, 300), durationMs: Math.round(entry.durationMs), id: newId("apiRequest"), at: Date.now() });
  if (!state.timer) {
    state.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
    state.timer.unref?.();
  }
}

// One statement for the whole buffer on the lean `sql` path, its rows as one JSON parameter. At a
// few thousand requests a second, Prisma's createMany of the same rows cost about a third of the
// API's CPU (its query compiler mapping every row and value), and then one array parameter per
// column cost pg's JavaScript escaping of every element (5 % of a ping's CPU); JSON.stringify is
// native, and each answer goes in as the JSON text redaction already produced (no second pass).
const INSERT = `INSERT INTO api_request_logs (id, merchant_id, environment, method, path, status, request_id, key_id, duration_ms, answer, created_at)
  SELECT id, merchant_id, environment::"Environment", method, path, status, request_id, key_id, duration_ms, answer, to_timestamp(at / 1000.0)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, merchant_id text, environment text, method text, path text, status int, request_id text, key_id text, duration_ms int, answer jsonb, at bigint)`;

/** The buffer as the statement's one JSON array (an answer is already JSON text, or null). */
function rowsJson(rows: Row[]): string {
  const out: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    out[i] =
      `{"id":${JSON.stringify(r.id)},"merchant_id":${JSON.stringify(r.merchantId)},"environment":${JSON.stringify(r.environment)},"method":${JSON.stringify(r.method)},` +
      `"path":${JSON.stringify(r.path)},"status":${r.status | 0},"request_id":${JSON.stringify(r.requestId)},"key_id":${JSON.stringify(r.keyId)},` +
      `"duration_ms":${r.durationMs | 0},"answer":${r.answer ?? "null"},"at":${r.at}}`;
  }
  return `[${out.join(",")}]`;
}

export async function flushRequestLog(): Promise<void> {
  state.timer = null;
  const rows = state.buffer.splice(0);
  if (rows.length === 0) return;
  try {
    await sql(INSERT, [rowsJson(rows)]);
    if (Date.now() - state.lastPrune > PRUNE_EVERY_MS) {
      state.lastPrune = Date.now();
      await sql(`DELETE FROM api_request_logs WHERE created_at < $1`, [new Date(Date.now() - KEEP_MS)]);
    }
  } catch (err) {
    if (isDatabaseUnavailable(err)) noteDatabaseOutage(err, { dropped: rows.length });
    else log.warn({ err: (err as Error).message, dropped: rows.length }, "request log write failed");
  }
}
