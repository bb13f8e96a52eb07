// A request body read off the socket for a handler given a web stream (the fast path,
// scripts/lib/api-dispatch.ts): backpressure both ways, and what the handler leaves unread is
// drained so the keep-alive connection stays usable.
import type { IncomingMessage } from "node:http";

/**
 * The request's body as a web stream that pauses the socket while nobody reads. `discard()`
 * drops what the handler left unread (it answered without reading, or stopped at a limit): the
 * rest is read and thrown away, so the keep-alive connection can carry the next request.
 */
export function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; discard: () => void } {
  let closed = false;
  const discard = () => {
    closed = true;
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (closed) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => {
        if (!closed) (closed = true), controller.close();
      });
      req.once("error", (err) => {
        if (!closed) (closed = true), controller.error(err);
      });
      req.pause();
    },
    pull() {
      if (!closed) req.resume();
    },
    cancel: discard,
  }, { highWaterMark: 4 });
  return { stream, discard };
}
