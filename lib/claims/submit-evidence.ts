// POST /claims/{id}/evidence: files and a statement against an open chargeback or PIX MED claim
// (the shop's defence), until dueBy.
// A file's type is read from its first bytes, whatever type the client declared; a name that
// says another of our types (a PDF named .png, a .pdf holding a PNG) is refused too, and a name
// with no such extension gets the right one, so a download opens as what it is. Each file is at
// most 5 MiB. The claim row is locked while evidence is added, so an accept or a decision running
// at the same moment either sees the evidence or refuses it as resolved, never half of it.
import { createHash } from "node:crypto";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { lockClaim } from "@/lib/claims/transitions";
import { EVIDENCE_FILE_LIMIT, type EvidenceUpload } from "@/lib/claims/schema";
import { evidenceFileName, extensionFor, sniffEvidenceType } from "@/lib/claims/evidence-file";
import { findOwnedClaim } from "@/lib/claims/find-claim";
import { getClaim } from "@/lib/claims/get-claim";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function submitEvidence(auth: Pick<AuthContext, "merchant" | "environment" | "shop">, id: string, upload: EvidenceUpload) {
  // Another merchant's claim is a 404 whatever is sent; then the files, before any lock.
  const owned = await findOwnedClaim(auth, id);
  if (owned.kind === "user_dispute") throw new AppError("invalid_request", "Evidence answers chargebacks and MED claims; this claim is a refund.", { param: "id" });
  const files = await Promise.all(
    upload.files.map(async (f, i) => {
      if (f.size > EVIDENCE_FILE_LIMIT) {
        throw new AppError("payload_too_large", `File ${i + 1} (${f.name}) is ${f.size} bytes; each file may hold at most 5 MiB.`, { param: "files", details: { limitBytes: EVIDENCE_FILE_LIMIT, file: f.name } });
      }
      const bytes = new Uint8Array(await f.arrayBuffer());
      const type = sniffEvidenceType(bytes);
      if (!type) throw new AppError("invalid_request", `File ${i + 1} (${f.name}) is not a PDF, PNG or JPEG (its content was checked, not its name).`, { param: "files", details: { file: f.name } });
      const name = evidenceFileName(f.name, type, i);
      if (!name) throw new AppError("invalid_request", `File ${i + 1} (${f.name}) holds a ${extensionFor(type).toUpperCase()}, not what its name says.`, { param: "files", details: { file: f.name, detected: type } });
      return { name, type, bytes };
    }),
  );
  await db().$transaction(async (tx) => {
    const claim = (await lockClaim(tx, owned.id))!;
    if (claim.status !== "open") throw new AppError("claim_already_resolved", `The claim is already ${claim.status}.`, { details: { status: claim.status } });
    const now = new Date();
    if (claim.dueBy && now > claim.dueBy) {
      throw new AppError("evidence_window_closed", `Evidence was due by ${claim.dueBy.toISOString()}.`, { details: { dueBy: claim.dueBy.toISOString() } });
    }
    await bindIdempotency(tx, { resource: "claim", id: claim.id });
    // One millisecond apart, so the claim lists them in the order they were sent.
    const at = (i: number) => new Date(now.getTime() + i);
    const base = { claimId: claim.id, merchantId: claim.merchantId, environment: claim.environment };
    await tx.claimEvidence.createMany({
      data: [
        ...files.map((f, i) => ({ ...base, createdAt: at(i), id: newId("claimEvidence"), kind: "file", fileName: f.name, contentType: f.type, size: f.bytes.byteLength, sha256: createHash("sha256").update(f.bytes).digest("hex"), content: f.bytes })),
        ...(upload.text !== null ? [{ ...base, createdAt: at(files.length), id: newId("claimEvidence"), kind: "text", size: upload.text.length, text: upload.text }] : []),
      ],
    });
  });
  return getClaim(auth, owned.id);
}

/** GET /claims/{id}/evidence/{evidenceId}: the file as uploaded. */
export async function evidenceFile(auth: Pick<AuthContext, "merchant" | "environment" | "shop">, id: string, evidenceId: string): Promise<Response> {
  const claim = await findOwnedClaim(auth, id);
  const e = await db().claimEvidence.findFirst({ where: { id: evidenceId, claimId: claim.id, kind: "file" } });
  if (!e?.content) throw new AppError("claim_not_found", `Claim ${id} has no file ${evidenceId}.`, { param: "evidenceId" });
  const name = (e.fileName ?? e.id).replace(/["\\]/g, "_");
  return new Response(new Uint8Array(e.content), {
    status: 200,
    headers: {
      "content-type": e.contentType ?? "application/octet-stream",
      "content-disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
