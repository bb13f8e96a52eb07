// The first step of every provider notice (charges, deposits, payouts): the provider must be
// configured here, and the signature (HMAC with the provider's notice secret over the signed
// timestamp and the exact raw body) must verify within ±5 minutes; 401 otherwise. Then the body
// must be JSON.
import { AppError } from "@/lib/platform/errors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { NOTICE_TOLERANCE_SECONDS } from "@/lib/providers/http-psp/transformers";

export function verifiedNotice(provider: string, rawBody: string, signature: string | null, now = new Date()): unknown {
  const check = isProviderConfigured(provider) ? connectorFor(provider).verifyNotice(rawBody, signature, now) : "invalid";
  if (check === "stale") {
    throw new AppError("invalid_signature", `The notice's signed timestamp is more than ${NOTICE_TOLERANCE_SECONDS / 60} minutes from ours; it is refused as a possible replay.`, { details: { reason: "timestamp_out_of_tolerance" } });
  }
  if (check !== "ok") throw new AppError("invalid_signature", "The notice is unsigned or its signature does not verify.");
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new AppError("invalid_json", "The notice body is not valid JSON.");
  }
}
