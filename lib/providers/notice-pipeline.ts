// The one inbound pipeline of provider notices (charges, deposits, payouts):
//   verify (signature + timestamp) -> parse (zod) -> record once -> dispatch.
// "Record once" happens INSIDE the transaction that applies the notice: `dispatch` passes
// `record` to the transition it runs (its `inTransaction` hook), so the notice id and its effect
// commit together or not at all. A notice id already recorded is acknowledged and changes
// nothing: a replay (same id) can never apply twice, even after the first effect was undone
// (a chargeback won, a payout returned).
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { parseWith } from "@/lib/platform/contract/validation";
import { verifiedNotice } from "@/lib/providers/verify-notice";
import type { z } from "zod";

/** Thrown by `record` when the notice id is already recorded; rolls the applying transaction back. */
class NoticeReplay extends Error {}

export type RecordNotice = (tx: Tx) => Promise<void>;
export type NoticeAnswer = { received: true; applied: boolean };

/**
 * The notice's body by its schema, or the schema's 400. A signed notice we cannot take (an amount
 * beyond the bound, a field missing) comes back on every retry with the same answer: it is
 * logged for an operator, with its id where it has one, since the provider alone can correct it.
 */
export function parsedNotice<S extends z.ZodType>(schema: S, body: unknown, who: Record<string, string>): z.infer<S> {
  try {
    return parseWith(schema, body, "body") as z.infer<S>;
  } catch (err) {
    if (err instanceof AppError) {
      const noticeId = body && typeof body === "object" && typeof (body as { noticeId?: unknown }).noticeId === "string" ? (body as { noticeId: string }).noticeId.slice(0, 100) : null;
      log.warn({ ...who, noticeId, code: err.code, param: err.param ?? null, issues: (err.details as { issues?: unknown } | undefined)?.issues ?? null }, "signed notice refused: its body does not match the notice's schema");
    }
    throw err;
  }
}

/** Whether a provider's notice id is already recorded (its effect applied, or nothing to apply). */
export async function noticeRecorded(provider: string, noticeId: string): Promise<boolean> {
  return !!(await db().providerNotice.findUnique({ where: { provider_noticeId: { provider, noticeId } }, select: { provider: true } }));
}

/**
 * Records a notice id in the applying transaction; false when another delivery got there first.
 * ON CONFLICT: a concurrent delivery of the same notice waits for the first and then finds it.
 */
export async function recordNoticeId(tx: Tx, provider: string, noticeId: string): Promise<boolean> {
  return (await tx.$executeRaw`INSERT INTO provider_notices (provider, notice_id) VALUES (${provider}, ${noticeId}) ON CONFLICT DO NOTHING`) > 0;
}

export async function receiveNotice<S extends z.ZodType<{ noticeId: string }>>(
  provider: string,
  rawBody: string,
  signature: string | null,
  schema: S,
  dispatch: (notice: z.infer<S>, record: RecordNotice) => Promise<boolean>,
): Promise<NoticeAnswer> {
  const notice = parsedNotice(schema, verifiedNotice(provider, rawBody, signature), { provider });
  if (await noticeRecorded(provider, notice.noticeId)) {
    log.info({ provider, noticeId: notice.noticeId }, "provider notice already applied; acknowledged");
    return { received: true, applied: false };
  }
  let recorded = false;
  const record: RecordNotice = async (tx) => {
    if (!(await recordNoticeId(tx, provider, notice.noticeId))) throw new NoticeReplay();
    recorded = true;
  };
  try {
    const applied = await dispatch(notice, record);
    // A notice that applied nothing (unknown charge, amount mismatch) is still recorded, once.
    if (!recorded) await db().$transaction((tx) => record(tx));
    return { received: true, applied };
  } catch (err) {
    if (err instanceof NoticeReplay) return { received: true, applied: false };
    throw err;
  }
}
