import { test } from "node:test";
import assert from "node:assert/strict";
import { evidenceFileName, sniffEvidenceType } from "@/lib/claims/evidence-file";

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

test("the type comes from the first bytes only", () => {
  assert.equal(sniffEvidenceType(text("%PDF-1.7\n")), "application/pdf");
  assert.equal(sniffEvidenceType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)), "image/png");
  assert.equal(sniffEvidenceType(bytes(0xff, 0xd8, 0xff, 0xe1)), "image/jpeg");
  // Near misses: a PDF signature not at the start, a truncated PNG signature, text, nothing.
  assert.equal(sniffEvidenceType(text(" %PDF-1.7")), null);
  assert.equal(sniffEvidenceType(text("%PDF")), null);
  assert.equal(sniffEvidenceType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a)), null);
  assert.equal(sniffEvidenceType(text("GIF89a")), null);
  assert.equal(sniffEvidenceType(bytes()), null);
});

test("the kept name agrees with the bytes: the same type is kept, another of ours refused, none added", () => {
  assert.equal(evidenceFileName("invoice.pdf", "application/pdf", 0), "invoice.pdf");
  assert.equal(evidenceFileName("Photo.JPEG", "image/jpeg", 0), "Photo.JPEG");
  assert.equal(evidenceFileName("invoice.pdf", "image/png", 0), null);
  assert.equal(evidenceFileName("shot.png", "image/jpeg", 0), null);
  assert.equal(evidenceFileName("scan", "application/pdf", 0), "scan.pdf");
  assert.equal(evidenceFileName("scan.txt", "image/png", 0), "scan.txt.png");
  assert.equal(evidenceFileName("", "image/png", 2), "evidence-3.png");
  assert.equal(evidenceFileName("../../etc/x.pdf", "application/pdf", 0), ".._.._etc_x.pdf");
  assert.equal(evidenceFileName("a\u0000b\r\n.pdf", "application/pdf", 0), "ab.pdf");
  assert.equal(evidenceFileName(`${"x".repeat(300)}.PDF`, "application/pdf", 0), `${"x".repeat(196)}.PDF`);
  assert.equal(evidenceFileName("y".repeat(300), "image/png", 0), `${"y".repeat(196)}.png`);
});
