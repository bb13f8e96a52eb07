// The request a route() handler is given on the fast path (CODE_STYLE "API route files are plain
// handlers"): only the members such a handler reads, each made when first read, instead of a Web
// Request, Headers and AbortSignal per request.
import type { IncomingMessage } from "node:http";
import { DIRECT_BODY, PLAIN_IO } from "./plain-io.ts";
import { PlainHeaders, stampedHeaders } from "./request-headers.ts";
import { bodyStream } from "./body-stream.ts";

/**
 * What a route() handler reads of its request (lib/platform/http/handler.ts PLAIN_IO): method, URL,
 * headers (with the peer and forwarded headers Next would add), a signal made only when read and
 * a body stream made only when read. No Web Request, Headers or AbortSignal per request.
 */
export class PlainRequest {
  readonly [PLAIN_IO] = true;
  readonly headers: PlainHeaders;
  private controller: AbortController | undefined;
  private gone = false;
  private stream: ReturnType<typeof bodyStream> | null | undefined;
  constructor(
    private readonly req: IncomingMessage,
    readonly url: string,
  ) {
    this.headers = new PlainHeaders(req.rawHeaders, stampedHeaders(req));
  }
  get method(): string {
    return this.req.method!;
  }
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) this.stream = this.req.method === "GET" ? null : bodyStream(this.req);
    return this.stream?.stream ?? null;
  }
  /**
   * The body's bytes, at most `limit` (lib/platform/http/body.ts DIRECT_BODY), read off the socket: null
   * past the limit, the rest thrown away so the connection can carry the next request. Undefined
   * when the body was already taken as a stream (it is read from there).
   */
  [DIRECT_BODY](limit: number): Promise<Uint8Array<ArrayBuffer> | null> | undefined {
    if (this.stream !== undefined) return undefined;
    this.stream = null;
    const req = this.req;
    // (`complete` says the parser has the whole body, not that anyone has read it.)
    if (req.method === "GET" || req.readableEnded) return Promise.resolve(new Uint8Array(0));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // The error listener stays: an aborted request may still emit one.
      const done = () => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("close", onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size <= limit) return void chunks.push(chunk);
        done();
        req.resume();
        resolve(null);
      };
      const onEnd = () => {
        done();
        if (chunks.length === 1) return resolve(new Uint8Array(chunks[0]!.buffer as ArrayBuffer, chunks[0]!.byteOffset, size));
        const out = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) (out.set(c, at), (at += c.byteLength));
        resolve(out);
      };
      const onError = (err: Error) => (done(), reject(err)); // (a settled promise ignores it)
      // The client went away mid-body: no 'end' will come.
      const onClose = () => (done(), reject(new Error("the client closed the connection before the body ended")));
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onError);
      req.once("close", onClose);
    });
  }
  /** The client went away before the answer was sent. */
  abort(): void {
    this.gone = true;
    this.controller?.abort();
  }
  /** After the answer: what the handler left unread is drained (see bodyStream). */
  drain(): void {
    if (this.req.complete) return;
    if (this.stream) this.stream.discard();
    else this.req.resume();
  }
}
