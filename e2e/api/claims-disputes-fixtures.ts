// Shared set-up of the claims and disputes API tests (claims-disputes-*.test.ts; not a test file
// itself): real PDF, PNG and JPEG bytes, multipart uploads and downloads of evidence, a sandbox
// chargeback, balance figures in cents, and the FX rate each file seeds in its before().
import assert from "node:assert/strict";
import { crc32, deflateSync } from "node:zlib";
import PDFDocument from "pdfkit";
import { api, API_URL } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

/** The production FX rate a provider's chargeback needs (a table every test file seeds with the same values). */
export const seedRates = () => setRate("MXN", "18.20", "test");

/** A real PDF (pdfkit), with a line of text the test reads back after the download. */
export function realPdf(line: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", info: { Title: "Proof of delivery" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(14).text(line);
  doc.end();
  return done;
}

/** A real 8x8 RGB PNG: signature, IHDR, one deflated IDAT, IEND, each chunk with its CRC. */
export function realPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  // Eight rows, each a filter byte (0: none) and eight RGB pixels of a gradient.
  const raw = Buffer.alloc(8 * 25);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) raw.set([x * 32, y * 32, 128], y * 25 + 1 + x * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);

export type Part = { name: string; file?: { bytes: Uint8Array; filename: string; type?: string }; value?: string };
export async function upload(path: string, key: string | null, parts: Part[], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const p of parts) {
    if (p.file) form.append(p.name, new Blob([new Uint8Array(p.file.bytes)], { type: p.file.type ?? "application/octet-stream" }), p.file.filename);
    else form.append(p.name, p.value ?? "");
  }
  const res = await fetch(`${API_URL}/api/v1${path}`, { method: "POST", headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body, text };
}

export async function download(key: string, claimId: string, evidenceId: string) {
  const res = await fetch(`${API_URL}/api/v1/claims/${claimId}/evidence/${evidenceId}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A completed sandbox payment with a chargeback open on it. */
export async function chargeback(m: CreatedMerchant | { sandbox: { secretKey: string } }, amount = 40): Promise<{ claimId: string; transactionId: string }> {
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  const id = p.body.transactionId;
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
  const list = await api(`/claims?transactionId=${id}&kind=chargeback`, { key });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, 1);
  return { claimId: list.body.data[0].id, transactionId: id };
}

/** Balance figures in cents, so sums are exact. */
export const cents = (n: number) => Math.round(n * 100);
export const held = (b: any) => cents(b.balance.available) + cents(b.balance.pending) + cents(b.balance.frozen);
export const balance = async (key: string) => (await api("/me/balance", { key })).body;
