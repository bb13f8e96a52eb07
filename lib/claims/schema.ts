import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { transactionIdParams } from "@/lib/payments/schema";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";
import { AppError } from "@/lib/platform/errors";

/** user_dispute: a refund; chargeback: a card dispute; pix_med: a PIX MED claim of the payer's bank (decisions.md). */
export const CLAIM_KINDS = ["user_dispute", "chargeback", "pix_med"] as const;
export const CLAIM_STATUSES = ["pending", "open", "resolved", "rejected", "won", "lost"] as const;

export const refundBody = z.object({
  amount: z.unknown().optional().meta({ type: "number", description: "Local-currency major units of the original payment; default: all that remains" }),
  reason: z.string().max(500).optional().describe("e.g. requested_by_customer, duplicate, fraudulent, other"),
});

export const refund = z
  .object({ refundId: z.string(), transactionId: z.string(), amount: z.number(), amountUsd: z.number(), currency: z.string(), status: z.string(), reason: z.string().nullable(), createdAt: z.string() })
  .meta({ id: "Refund" });

/** Per file of evidence, and at most this many files per request. */
export const EVIDENCE_FILE_LIMIT = 5 * 1024 * 1024;
export const EVIDENCE_FILES_PER_REQUEST = 5;
export const EVIDENCE_TEXT_LIMIT = 20_000;
export const EVIDENCE_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;

export const claimEvidence = z
  .object({
    id: z.string().describe("evd_…"),
    kind: z.enum(["file", "text"]),
    fileName: z.string().nullable(),
    contentType: z.enum(EVIDENCE_TYPES).nullable().describe("Read from the file's bytes, not from the declared type"),
    size: z.number().int().describe("Bytes (files) or characters (text)"),
    text: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "ClaimEvidence" });

export const claim = z
  .object({
    id: z.string(),
    kind: z.enum(CLAIM_KINDS),
    status: z.enum(CLAIM_STATUSES),
    transactionId: z.string(),
    amount: z.number(),
    amountUsd: z.number(),
    currency: z.string(),
    reason: z.string().nullable(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    dueBy: z.string().nullable().describe("Chargebacks and MED claims: the last moment evidence is taken (7 days after opening, PIX_MED_RESPONSE_DAYS for MED); null for refunds"),
    respondBy: z.string().nullable().describe("The same moment as dueBy, under the name decisions.md gives it for MED claims"),
    evidence: z.array(claimEvidence).describe("What the merchant submitted against a chargeback or MED claim (its defence), oldest first"),
    history: z.array(z.object({ status: z.string(), at: z.string() })),
  })
  .meta({ id: "Claim" });

export const refundPaymentEndpoint = defineEndpoint({
  method: "POST",
  path: "/payments/{id}/refund",
  tag: "Refunds",
  summary: "Refund a completed payment, fully or in part",
  description: "Opens a claim of kind user_dispute (status pending) and freezes the amount; the provider's confirmation resolves it. The amount is in the payment's local currency.",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  params: transactionIdParams,
  body: refundBody,
  response: refund,
  errors: ["transaction_not_found", "amount_invalid", "amount_out_of_limits", "balance_insufficient"],
});

export const getClaimEndpoint = defineEndpoint({
  method: "GET",
  path: "/claims/{id}",
  tag: "Refunds",
  summary: "A refund or chargeback claim and its history",
  auth: "secret",
  permission: "read",
  params: z.object({ id: z.string().min(1).max(64) }),
  response: z.object({ claim }).meta({ id: "ClaimEnvelope" }),
  errors: ["claim_not_found"],
});

const claimIdParams = z.object({ id: z.string().min(1).max(64) });
const day = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date or date-time");

export const listClaimsQuery = z.object({
  ...listQuery(),
  kind: z.enum(CLAIM_KINDS).optional(),
  status: z.enum(CLAIM_STATUSES).optional(),
  transactionId: z.string().min(1).max(64).optional(),
  from: day.optional().describe("Opened at or after"),
  to: day.optional().describe("Opened before"),
});

export const listClaimsEndpoint = defineEndpoint({
  method: "GET",
  path: "/claims",
  tag: "Refunds",
  summary: "List refund and chargeback claims",
  description: "Newest first; offset (with a pagination block) or cursor paging; filters kind, status, transactionId, from, to (opening time).",
  auth: "secret",
  permission: "read",
  query: listClaimsQuery,
  response: listOf(claim),
  errors: ["invalid_request"],
});

/** The fields of an evidence upload, as documented (the parse below reads the FormData). */
const evidenceForm = z.object({
  files: z.array(z.string().meta({ format: "binary" })).max(EVIDENCE_FILES_PER_REQUEST).optional().describe(`PDF, PNG or JPEG, at most 5 MiB each, at most ${EVIDENCE_FILES_PER_REQUEST} per request (repeat the field)`),
  text: z.string().max(EVIDENCE_TEXT_LIMIT).optional().describe("The merchant's account of the transaction"),
});

export type EvidenceUpload = { files: File[]; text: string | null };

/** multipart/form-data -> files and text; refuses an empty upload and fields it does not know. */
export function parseEvidenceForm(raw: unknown): EvidenceUpload {
  const form = raw as FormData;
  const files: File[] = [];
  let text: string | null = null;
  for (const [name, value] of form.entries()) {
    if ((name === "files" || name === "file") && typeof value !== "string") files.push(value);
    else if (name === "text" && typeof value === "string") {
      if (value.trim() === "") continue;
      if (text !== null) throw new AppError("invalid_request", "Send one `text` per request (one statement; files may repeat).", { param: "text" });
      text = value;
    }
    else throw new AppError("invalid_request", `Unknown field \`${name}\`: send files in \`files\` and a statement in \`text\`.`, { param: name });
  }
  if (files.length === 0 && text === null) throw new AppError("missing_required_fields", "Send at least one file in `files` or a statement in `text`.", { param: "files" });
  if (files.length > EVIDENCE_FILES_PER_REQUEST) throw new AppError("invalid_request", `At most ${EVIDENCE_FILES_PER_REQUEST} files per request.`, { param: "files" });
  if (text !== null && text.length > EVIDENCE_TEXT_LIMIT) throw new AppError("invalid_request", `\`text\` holds at most ${EVIDENCE_TEXT_LIMIT} characters.`, { param: "text" });
  return { files, text };
}

export const submitEvidenceEndpoint = defineEndpoint({
  method: "POST",
  path: "/claims/{id}/evidence",
  tag: "Refunds",
  summary: "Submit evidence against an open chargeback or PIX MED claim",
  description:
    "multipart/form-data: `files` (PDF, PNG or JPEG, its type read from its bytes; at most 5 MiB each, 5 per request) and/or one `text`. A file whose name says another of these types than its bytes (a PNG named invoice.pdf) is refused; a name without such an extension gets the right one. Taken until the claim's `dueBy`; after it 409 evidence_window_closed. A file over 5 MiB is 413 payload_too_large, another type 400 invalid_request (param files). Answers the claim with all its evidence.",
  auth: "secret",
  permission: "respondToDisputes",
  idempotent: true,
  params: claimIdParams,
  multipart: { limitBytes: EVIDENCE_FILES_PER_REQUEST * EVIDENCE_FILE_LIMIT + 256 * 1024 },
  body: evidenceForm,
  parseBody: parseEvidenceForm,
  response: z.object({ claim }),
  successStatus: 201,
  errors: ["claim_not_found", "claim_already_resolved", "evidence_window_closed", "missing_required_fields"],
});

export const getEvidenceFileEndpoint = defineEndpoint({
  method: "GET",
  path: "/claims/{id}/evidence/{evidenceId}",
  tag: "Refunds",
  summary: "Download a file of evidence",
  description: "Answers the file as it was uploaded, with its checked content type.",
  auth: "secret",
  permission: "read",
  params: z.object({ id: z.string().min(1).max(64), evidenceId: z.string().min(1).max(64) }),
  response: z.string().meta({ format: "binary" }),
  responseType: "application/octet-stream",
  errors: ["claim_not_found"],
});

export const acceptClaimEndpoint = defineEndpoint({
  method: "POST",
  path: "/claims/{id}/accept",
  tag: "Refunds",
  summary: "Accept a chargeback or PIX MED claim (concede it)",
  description: "The claim becomes lost at once: a chargeback's frozen amount leaves the balance with the chargeback fee and the payment becomes chargeback; a MED claim's blocked amount goes back to the payer (no fee; returned in full, the payment reads refunded). claim.resolved fires. A resolved claim is 409 claim_already_resolved; a refund claim 400 invalid_request.",
  auth: "secret",
  permission: "respondToDisputes",
  idempotent: true,
  params: claimIdParams,
  response: z.object({ claim }),
  errors: ["claim_not_found", "claim_already_resolved"],
});

export const simulateClaimEndpoint = defineEndpoint({
  method: "POST",
  path: "/claims/{id}/simulate",
  tag: "Sandbox",
  summary: "Decide an open chargeback or PIX MED claim (sandbox)",
  description: "`won` needs evidence submitted before `dueBy` (422 missing_required_fields, param evidence, otherwise) and releases the frozen amount; `lost` debits it (a chargeback with its fee; a MED claim returns it to the payer).",
  auth: "secret",
  idempotent: true,
  permission: "simulateDispute",
  params: claimIdParams,
  body: z.object({ action: z.enum(["won", "lost"]) }),
  response: z.object({ claim }),
  errors: ["claim_not_found", "claim_already_resolved", "missing_required_fields"],
});
