// The one provider HTTP exchange: a whole answer (parsed or not), a timeout, a refused connection.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { noUsableAnswer, providerExchange } from "@/lib/providers/http-exchange";

async function server(handler: http.RequestListener) {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise((r) => (s.closeAllConnections(), s.close(r))) };
}
const get = { method: "GET" as const, headers: {}, timeoutMs: 300 };

test("an answer is its status and its parsed body; a body the parser refuses is undefined", async () => {
  const s = await server((req, res) => res.writeHead(req.url === "/json" ? 201 : 502).end(req.url === "/json" ? '{"a":1}' : "<html>bad gateway</html>"));
  try {
    assert.deepEqual(await providerExchange(`${s.url}/json`, get, JSON.parse), { ok: true, status: 201, body: { a: 1 } });
    assert.deepEqual(await providerExchange(`${s.url}/html`, get, JSON.parse), { ok: true, status: 502, body: undefined });
    assert.equal(noUsableAnswer(502, undefined), "unreadable_answer_502");
    assert.equal(noUsableAnswer(404, { message: "x" }), "http_404");
  } finally {
    await s.close();
  }
});

test("no answer in time is a timeout, a body cut off is no answer, a refused connection is connection_failed", async () => {
  const s = await server((req, res) => {
    if (req.url === "/half") {
      res.writeHead(200, { "content-length": "100" });
      res.write('{"a":');
    }
  });
  try {
    assert.deepEqual(await providerExchange(`${s.url}/hang`, get, JSON.parse), { ok: false, reason: "timeout" });
    assert.deepEqual(await providerExchange(`${s.url}/half`, get, JSON.parse), { ok: false, reason: "timeout" });
  } finally {
    await s.close();
  }
  assert.deepEqual(await providerExchange("http://127.0.0.1:9/", get, JSON.parse), { ok: false, reason: "connection_failed" });
});
