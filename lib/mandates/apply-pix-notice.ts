// POST /providers/{provider}/pix/{rec|cobr}: a PSP's Pix Automático notice. Verified first
// (lib/providers/verify-notice.ts), then only read for the recurrences and charges it names, each
// read back from the PSP (lib/mandates/sync-recurrence.ts, sync-charges.ts). Nothing is recorded
// per notice: what is applied is the PSP's current status, and applying it again changes nothing.
import { verifiedNotice } from "@/lib/providers/verify-notice";
import { parsedNotice } from "@/lib/providers/notice-pipeline";
import { MANDATE_PROVIDER_CODES } from "@/lib/providers/mandates";
import { AppError } from "@/lib/platform/errors";
import { pixNoticeBody } from "@/lib/mandates/schema";
import { syncNoticedRecurrences } from "@/lib/mandates/sync-recurrence";
import { syncNoticedCharges } from "@/lib/mandates/sync-charges";

export async function applyPixNotice(provider: string, kind: "rec" | "cobr", rawBody: string, signature: string | null) {
  const body = parsedNotice(pixNoticeBody, verifiedNotice(provider, rawBody, signature), { provider });
  if (!(MANDATE_PROVIDER_CODES as readonly string[]).includes(provider)) throw new AppError("invalid_request", `Provider ${provider} holds no recurring PIX.`, { param: "provider" });
  const applied = kind === "rec" ? await syncNoticedRecurrences(provider, (body.recs ?? []).map((r) => r.idRec)) : await syncNoticedCharges(provider, (body.cobsr ?? []).map((c) => c.txid));
  return { received: true, applied };
}
