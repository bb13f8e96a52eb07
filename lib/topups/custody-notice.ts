// POST /api/v1/custody/notifications: the custody provider tells us of a transfer to a top-up
// address. The signature covers the exact bytes (compared in constant time); nothing is read
// from an unsigned body.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";
import { custodyNoticeBody } from "@/lib/topups/schema";
import { applyCustodyNotice } from "@/lib/topups/topups";

export const CUSTODY_NOTICE_PATH = "/api/v1/custody/notifications";

export async function receiveCustodyNotice(raw: string, signature: string | null) {
  const secret = config().CUSTODY_SECRET;
  const want = secret ? createHmac("sha256", secret).update(`POST ${CUSTODY_NOTICE_PATH}\n${raw}`).digest() : null;
  const got = Buffer.from(signature ?? "", "hex");
  if (!want || got.length !== want.length || !timingSafeEqual(got, want)) throw new AppError("invalid_signature", "The notice's X-Custody-Signature does not match.");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("invalid_json", "The notice is not valid JSON.");
  }
  const n = parseWith(custodyNoticeBody, json, "body");
  return { received: true as const, credited: await applyCustodyNotice(n) };
}
