// A production mandate's recurrence at the PSP that will hold it (lib/providers/mandates.ts),
// created before the mandate's row: a mandate exists only with a recurrence the payer can
// authorize. Creating one moves no money, so a PSP that does not answer (or refuses) leaves
// nothing of ours: 503 service_unavailable, safe to retry with the same Idempotency-Key (a
// recurrence the lost answer may have left at the PSP is never shown to a payer, and expires there).
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { mandateConnectorFor, mandateProvider } from "@/lib/providers/mandates";
import type { RecurrenceRequest } from "@/lib/providers/types";

const RETRY_AFTER_SECONDS = 5;

export async function openRecurrence(r: Omit<RecurrenceRequest, "notifyUrl">): Promise<{ provider: string; providerRef: string; qrCode: string | null }> {
  const provider = mandateProvider();
  if (!provider) throw new AppError("service_unavailable", "No PSP that offers recurring PIX (Pix Automático) is configured: mandates cannot be created in production now.");
  const out = await mandateConnectorFor(provider).createRecurrence({ ...r, notifyUrl: `${config().APP_URL}/api/v1/providers/${provider}/pix` });
  if (out.kind === "created") return { provider, providerRef: out.providerRef, qrCode: out.qrCode };
  log.warn({ provider, mandateId: r.mandateId, outcome: out.kind, reason: out.reason }, "the PSP did not create the mandate's recurrence");
  throw new AppError("service_unavailable", `The PSP that holds recurring PIX mandates ${out.kind === "refused" ? `refused the recurrence (${out.reason})` : "did not answer"}; nothing was created. Retry after ${RETRY_AFTER_SECONDS} s; retrying with the same Idempotency-Key is safe.`, {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}
