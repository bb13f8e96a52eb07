// Bounded request bodies. A body is read as a stream and the read stops at the limit: a declared
// Content-Length over it is refused before a byte is read, and a body that lies about its length
// (or sends none, chunked) is cut when it passes the limit. Nothing larger is ever held in memory.
import { createHash } from "node:crypto";
import { AppError } from "@/lib/platform/errors";

/** The API's JSON bodies. */
export const API_BODY_LIMIT = 1024 * 1024;
/** Unauthenticated receivers (provider notices, the managed inbox) and the buyer pages' forms. */
export const NOTICE_BODY_LIMIT = 64 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body exceeds the limit of ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`}.`, {
    details: { limitBytes: limit },
  });
}

/** Throws payload_too_large when the declared Content-Length is over `limit` (before reading). */
export function refuseDeclaredOversize(req: Request, limit: number): void {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge(limit);
}

/**
 * A request that can hand over its body's bytes without a web stream (the fast path's
 * PlainRequest, scripts/lib/fast-path/plain-request.ts): `undefined` when it cannot (its body was already
 * taken as a stream), null past `limit` (what was not read is thrown away).
 */
export const DIRECT_BODY = Symbol.for("latam-payments.direct-body");
type DirectBody = { [DIRECT_BODY]: (limit: number) => Promise<Uint8Array<ArrayBuffer> | null> | undefined };

/** The body as bytes, at most `limit` of them; payload_too_large (and the stream cancelled) beyond. */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  refuseDeclaredOversize(req, limit);
  // A web stream costs a POST /payments about 8 % of its CPU (the stream, a transferable per
  // chunk, a promise per read) to carry a few hundred bytes.
  const direct = DIRECT_BODY in req ? (req as unknown as DirectBody)[DIRECT_BODY](limit) : undefined;
  if (direct) {
    const bytes = await direct;
    if (!bytes) throw tooLarge(limit);
    return bytes;
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

// decode() without `stream` keeps no state between calls: one decoder serves every request.
const UTF8 = new TextDecoder();

/** The body as UTF-8 text, at most `limit` bytes. */
export async function readBody(req: Request, limit: number): Promise<string> {
  return UTF8.decode(await readBodyBytes(req, limit));
}

/**
 * A form post's fields, at most `limit` bytes. Null when the body is not a form; throws
 * payload_too_large beyond the limit.
 */
export async function readFormData(req: Request, limit: number = NOTICE_BODY_LIMIT): Promise<FormData | null> {
  const bytes = await readBodyBytes(req, limit);
  const type = req.headers.get("content-type");
  return new Response(bytes, type ? { headers: { "content-type": type } } : undefined).formData().catch(() => null);
}

/** The plain answer of a buyer page's form post whose body is over the limit. */
export function formTooLarge(): Response {
  return new Response("The form is too large.", { status: 413, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** Runs a bounded read; a body over its limit becomes the plain 413 of a form post (`refused`). */
export async function boundedRead<T>(read: Promise<T>): Promise<{ value: T; refused?: never } | { refused: Response }> {
  try {
    return { value: await read };
  } catch (err) {
    if (err instanceof AppError && err.code === "payload_too_large") return { refused: formTooLarge() };
    throw err;
  }
}

/** A multipart/form-data body of at most `limit` bytes, parsed, with a hash of its parts. */
export async function readMultipart(req: Request, limit: number): Promise<{ data: FormData; sha256: string }> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type.trim())) throw new AppError("content_type_required", "Send the body as `multipart/form-data`.");
  const bytes = await readBodyBytes(req, limit);
  const data = await new Response(bytes, { headers: { "content-type": type } }).formData().catch(() => null);
  if (!data) throw new AppError("invalid_request", "The body is not valid multipart/form-data.");
  // The fingerprint is of the parts, not of the bytes: a retry's boundary differs.
  const hash = createHash("sha256");
  for (const [name, value] of data.entries()) {
    const part = typeof value === "string" ? ["text", value] : ["file", value.name, value.type, createHash("sha256").update(new Uint8Array(await value.arrayBuffer())).digest("hex")];
    hash.update(JSON.stringify([name, ...part]));
  }
  return { data, sha256: hash.digest("hex") };
}
