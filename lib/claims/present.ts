import { toMajor } from "@/lib/money/amount";
import type { Claim, ClaimEvidence } from "@/lib/generated/prisma/client";

export type ClaimHistory = Array<{ status: string; at: string }>;

/** What a claim shows of its evidence: never the file's bytes (GET /claims/{id}/evidence/{evidenceId}). */
export type EvidenceMeta = Pick<ClaimEvidence, "id" | "kind" | "fileName" | "contentType" | "size" | "text" | "createdAt">;
export const EVIDENCE_META = { id: true, kind: true, fileName: true, contentType: true, size: true, text: true, createdAt: true } as const;

/** The claim as GET /claims/{id} returns it (decisions.md), also the data.object of claim events. */
export function presentClaim(c: Claim, evidence: EvidenceMeta[] = []) {
  return {
    id: c.id,
    kind: c.kind,
    status: c.status,
    transactionId: c.transactionId,
    amount: toMajor(c.amountLocal, c.currency),
    amountUsd: toMajor(c.amountUsd, "USD"),
    currency: c.currency,
    reason: c.reason,
    createdAt: c.createdAt.toISOString(),
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
    dueBy: c.dueBy?.toISOString() ?? null,
    respondBy: c.dueBy?.toISOString() ?? null,
    evidence: evidence.map((e) => ({
      id: e.id,
      kind: e.kind as "file" | "text",
      fileName: e.fileName,
      contentType: e.contentType as "application/pdf" | "image/png" | "image/jpeg" | null,
      size: e.size,
      text: e.text,
      createdAt: e.createdAt.toISOString(),
    })),
    history: c.history as ClaimHistory,
  };
}

/** The refund answer of POST /payments/{id}/refund (2.12). */
export function presentRefund(c: Claim) {
  return {
    refundId: c.id,
    transactionId: c.transactionId,
    amount: toMajor(c.amountLocal, c.currency),
    amountUsd: toMajor(c.amountUsd, "USD"),
    currency: c.currency,
    status: c.status,
    reason: c.reason,
    createdAt: c.createdAt.toISOString(),
  };
}
