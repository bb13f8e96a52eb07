// POST /api/v1/custody/notifications: one pipeline for the custody provider's notices. Verify the
// timestamped signature over the exact bytes (constant time, before parsing), parse the notice,
// answer a notice id already applied without acting, dispatch (a deposit credits a top-up, a
// withdrawal's outcome ends it through the money kernel), then record the notice id. Both applies
// are idempotent on their own (a txHash credits once, an ended withdrawal stays ended), so a
// crash between applying and recording only means a replay applies again, changing nothing.
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";
import { checkCustodySignature } from "@/lib/custody/notice-signature";
import { custodyNoticeBody } from "@/lib/custody/schema";
import { applyCustodyNotice } from "@/lib/topups/topups";
import { applyWithdrawalNotice } from "@/lib/withdrawals/apply-withdrawal-notice";

export const CUSTODY_NOTICE_PATH = "/api/v1/custody/notifications";

export async function receiveCustodyNotice(raw: string, signature: string | null, nowMs = Date.now()) {
  const secret = config().CUSTODY_SECRET;
  const check = secret ? checkCustodySignature(secret, CUSTODY_NOTICE_PATH, raw, signature, nowMs) : "missing";
  if (check === "stale") throw new AppError("invalid_signature", "The notice's X-Custody-Signature is more than 5 minutes from now: refused as a possible replay.");
  if (check !== "ok") throw new AppError("invalid_signature", "The notice's X-Custody-Signature does not match.");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("invalid_json", "The notice is not valid JSON.");
  }
  const n = parseWith(custodyNoticeBody, json, "body");
  if (await db().custodyNotice.findUnique({ where: { id: n.noticeId }, select: { id: true } })) return { received: true as const, duplicate: true };
  const answer =
    n.type === "deposit"
      ? { received: true as const, duplicate: false, credited: await applyCustodyNotice(n) }
      : { received: true as const, duplicate: false, withdrawal: await applyWithdrawalNotice(n) };
  await db().custodyNotice.createMany({ data: [{ id: n.noticeId, kind: n.type }], skipDuplicates: true });
  return answer;
}
