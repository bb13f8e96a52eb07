// POST /api/v1/custody/notifications: one pipeline for the custody provider's notices, shaped like
// the providers' (lib/providers/notice-pipeline.ts). Verify the timestamped signature over the
// exact bytes with the INBOUND secret (CUSTODY_NOTICE_SECRET; never the outbound CUSTODY_SECRET),
// in constant time, before parsing; parse the notice; answer a notice id already applied without
// acting; dispatch (a deposit to a top-up address, a withdrawal's outcome) with `record`, which
// the domain's transition runs as its `before` step: the notice id commits in the same
// transaction as its effect, or not at all. A concurrent delivery of the same id waits on the
// insert and then rolls back as a replay.
import { config } from "@/lib/platform/config";
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { parsedNotice } from "@/lib/providers/notice-pipeline";
import { checkCustodySignature } from "@/lib/custody/notice-signature";
import { custodyNoticeBody } from "@/lib/custody/schema";
import { applyCustodyNotice } from "@/lib/topups/transfers";
import { applyWithdrawalNotice } from "@/lib/withdrawals/apply-withdrawal-notice";

export const CUSTODY_NOTICE_PATH = "/api/v1/custody/notifications";

/** Records the notice id inside the applying transaction (the kernel's `before` step). */
export type RecordCustodyNotice = (tx: Tx) => Promise<void>;

/** Thrown by `record` when the id is already recorded: rolls the applying transaction back. */
class CustodyNoticeReplay extends Error {}

export async function receiveCustodyNotice(raw: string, signature: string | null, nowMs = Date.now()) {
  const secret = config().CUSTODY_NOTICE_SECRET;
  const check = secret ? checkCustodySignature(secret, CUSTODY_NOTICE_PATH, raw, signature, nowMs) : "missing";
  if (check === "stale") throw new AppError("invalid_signature", "The notice's X-Custody-Signature is more than 5 minutes from now: refused as a possible replay.");
  if (check !== "ok") throw new AppError("invalid_signature", "The notice's X-Custody-Signature does not match.");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("invalid_json", "The notice is not valid JSON.");
  }
  const n = parsedNotice(custodyNoticeBody, json, { provider: "custody" });
  const duplicate = { received: true as const, duplicate: true };
  if (await db().custodyNotice.findUnique({ where: { id: n.noticeId }, select: { id: true } })) {
    log.info({ noticeId: n.noticeId }, "custody notice already applied; acknowledged");
    return duplicate;
  }
  let recorded = false;
  const record: RecordCustodyNotice = async (tx) => {
    const inserted = await tx.$executeRaw`INSERT INTO custody_notices (id, kind) VALUES (${n.noticeId}, ${n.type}) ON CONFLICT DO NOTHING`;
    if (inserted === 0) throw new CustodyNoticeReplay();
    recorded = true;
  };
  try {
    const answer =
      n.type === "deposit"
        ? { received: true as const, duplicate: false, ...(await applyCustodyNotice(n, record)) }
        : { received: true as const, duplicate: false, withdrawal: await applyWithdrawalNotice(n, record) };
    // Every apply records the id in its own transaction; a notice that reached none is still recorded, once.
    if (!recorded) await db().$transaction((tx) => record(tx));
    return answer;
  } catch (err) {
    if (err instanceof CustodyNoticeReplay) return duplicate;
    throw err;
  }
}
