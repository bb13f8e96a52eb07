// The first step of every provider notice (charges, deposits, payouts): the provider must be
// configured here and the HMAC over the exact raw body must verify (401 otherwise), then the
// body must be JSON.
import { AppError } from "@/lib/errors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";

export function verifiedNotice(provider: string, rawBody: string, signature: string | null): unknown {
  if (!isProviderConfigured(provider) || !connectorFor(provider).verifyNotice(rawBody, signature)) {
    throw new AppError("invalid_signature", "The notice is unsigned or its signature does not verify.");
  }
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new AppError("invalid_json", "The notice body is not valid JSON.");
  }
}
