// A handler's answer written back to node:http on the fast path: a plain answer or a JSON one in
// one write with its length, anything else (files, exports, event streams) streamed with
// backpressure, and cancelled when the client goes away.
import type { ServerResponse } from "node:http";
import { isPlainAnswer, type PlainAnswer } from "./plain-io.ts";

export async function writeResponse(response: Response | PlainAnswer, res: ServerResponse): Promise<void> {
  if (isPlainAnswer(response)) {
    // One finished body (a JSON answer, a buyer page): sent with its length in one write.
    const length = typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength;
    res.writeHead(response.status, { ...response.headers, "Content-Length": length });
    res.end(response.body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = response.status;
  if (!response.body) {
    res.end();
    return;
  }
  // A JSON answer is one finished string (lib/platform/http/handler.ts): read it whole and send it with its
  // length in one write, instead of a chunked stream read a chunk at a time (two reads, a chunk,
  // the terminator). Anything else (files, exports, event streams) streams as it comes.
  if (/^application\/json/i.test(response.headers.get("content-type") ?? "") && !response.headers.has("content-encoding")) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("content-length", body.byteLength);
    res.end(body);
    return;
  }
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await new Promise<void>((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    }
    res.end();
  } finally {
    res.off("close", gone);
  }
}
