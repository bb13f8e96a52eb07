// What a dashboard server action answers: the use case's data, or the API's error (code,
// message and the offending field) so a form can show it next to that field.
import { AppError, isDatabaseUnavailable, isTransactionConflict } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { newId } from "@/lib/platform/ids";

export type ActionError = { code: string; message: string; param?: string; details?: Record<string, unknown> };
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

export async function runAction<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: { code: err.code, message: err.message, ...(err.param ? { param: err.param } : {}), ...(err.details ? { details: err.details } : {}) } };
    // What the API answers 503 (lib/platform/http/handler.ts) is no fault of the form either: the
    // person is told nothing was applied and to try again, not handed a support reference.
    if (isTransactionConflict(err)) return { ok: false, error: { code: "service_unavailable", message: "Someone changed the same record at the same moment, so nothing was applied. Try again." } };
    if (isDatabaseUnavailable(err)) return { ok: false, error: { code: "service_unavailable", message: "The service is briefly unavailable, so nothing was applied. Try again in a few seconds." } };
    const requestId = newId("request");
    log.error({ requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, "dashboard action failed");
    return { ok: false, error: { code: "internal_error", message: `Something went wrong. Quote ${requestId} to support.` } };
  }
}
