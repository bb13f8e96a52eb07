// Webhooks on a laptop, end to end: the SDK's CLI (`latam-payments listen --forward-to …`, run as
// a process) opens the stream from the service, a sandbox payment completes, and a local receiver
// verifies the forwarded delivery with the SDK and the secret `--print-secret` gave. The CLI
// prints each delivery with the local answer, honours `--events`, and the listen inbox's delivery
// log records what the laptop answered (a 500 there is a failed delivery).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { verifyWebhook, WebhookVerificationError } from "../src/index.ts";
import { api, newMerchant, waitFor, API_URL, listenLocal } from "../../e2e/api/helpers.ts";
import { db } from "@/lib/platform/db";

const CLI = path.resolve(import.meta.dirname, "../src/cli.ts");
const BASE = `${API_URL}/api/v1`;
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await db().$disconnect();
});

const cli = (args: string[], key: string) => spawnSync(process.execPath, ["--import", "tsx", CLI, "listen", ...args, "--base-url", BASE], { encoding: "utf8", timeout: 60_000, env: { ...process.env, LATAM_PAYMENTS_SECRET_KEY: key } });

test("listen forwards sandbox deliveries to a local URL, signed as sent, and reports the local answer", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;

  // The secret to verify with locally, the same every session.
  const printed = cli(["--print-secret"], key);
  assert.equal(printed.status, 0, printed.stderr);
  const secret = printed.stdout.trim();
  assert.match(secret, /^whsec_/);
  assert.equal(cli(["--print-secret"], key).stdout.trim(), secret, "one listen inbox per merchant: the same secret");

  // The laptop's endpoint: verifies with the SDK; answers 500 to payment.failed.
  const got: Array<{ type: string; id: string; objectId: string }> = [];
  const refused: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      try {
        const e = verifyWebhook(body, req.headers, secret);
        // Both header styles verify on their own too.
        verifyWebhook(body, { "x-service-signature": req.headers["x-service-signature"] }, secret);
        verifyWebhook(body, { "webhook-id": req.headers["webhook-id"], "webhook-timestamp": req.headers["webhook-timestamp"], "webhook-signature": req.headers["webhook-signature"] }, secret);
        got.push({ type: e.type, id: e.id, objectId: e.data.object.id });
        if (e.type === "payment.failed") {
          res.statusCode = 500;
          res.end("boom");
        } else res.end("verified");
      } catch (err) {
        refused.push(err instanceof WebhookVerificationError ? err.message : String(err));
        res.statusCode = 400;
        res.end("bad signature");
      }
    });
  });
  const served = await listenLocal(receiver);
  try {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "listen", "--forward-to", `${served.base}/hooks`, "--events", "payment.completed,payment.failed", "--base-url", BASE], {
      env: { ...process.env, LATAM_PAYMENTS_SECRET_KEY: key },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let out = "";
    let errOut = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (errOut += c));
    await waitFor(async () => out.includes("Ready!"), `the CLI ready (stdout: ${out} stderr: ${errOut})`, 30_000);

    const pay = async (action: string) => {
      const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
      assert.equal(p.status, 200, p.text);
      assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action } })).status, 200);
      return p.body.transactionId as string;
    };
    const paid = await pay("paid");
    const failed = await pay("failed");

    await waitFor(async () => got.some((g) => g.objectId === paid && g.type === "payment.completed") && got.some((g) => g.objectId === failed), "both deliveries forwarded and verified", 30_000);
    await waitFor(async () => out.includes("payment.completed") && /payment\.failed.*<-- 500/.test(out), `the CLI's lines (${out})`, 10_000);
    assert.match(out, /--> payment\.completed \[evt_\S+\]\s+<-- 200 \(\d+ ms\) dlv_\S+\n/);
    assert.deepEqual(refused, [], "every forwarded delivery verifies");
    assert.ok(!got.some((g) => g.type === "payment.captured"), "--events keeps payment.captured out");

    // The delivery log of the listen inbox shows the laptop's answers.
    const hooks = (await api("/webhooks", { key })).body.data as Array<{ id: string; url: string; managed: boolean }>;
    const inbox = hooks.find((h) => h.managed && h.url.endsWith("?listen=cli"));
    assert.ok(inbox, JSON.stringify(hooks));
    const log = await waitFor(async () => {
      const d = (await api(`/webhooks/${inbox.id}/deliveries?limit=50`, { key })).body.data as Array<{ event: string; status: string; responseStatus: number | null; responseBody: string | null; payload: { data: { object: { id: string } } } }>;
      const ok = d.find((x) => x.event === "payment.completed" && x.payload.data.object.id === paid);
      const bad = d.find((x) => x.event === "payment.failed" && x.payload.data.object.id === failed);
      return ok?.responseBody === "verified" && bad?.responseStatus === 500 && { ok, bad };
    }, "the laptop's answers in the delivery log");
    assert.equal(log.ok.status, "succeeded");
    assert.equal(log.ok.responseStatus, 200);
    assert.equal(log.bad.status, "failed");
    assert.equal(log.bad.responseBody, "boom");

    child.kill("SIGINT");
    await waitFor(async () => child.exitCode !== null, "the CLI stops on Ctrl-C");
    assert.equal(child.exitCode, 0);
  } finally {
    await served.close();
  }
});

test("listen refuses live keys and unknown event types", async () => {
  const m = await newMerchant();
  const live = cli(["--forward-to", "http://localhost:3000/hooks"], m.production.secretKey);
  assert.equal(live.status, 1);
  assert.match(live.stderr, /sandbox/);
  // The service refuses a live key itself too.
  const res = await api("/webhooks/listen", { key: m.production.secretKey });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, "production_key_refused");
  const bad = cli(["--forward-to", "http://localhost:3000/hooks", "--events", "payment.nope"], m.sandbox.secretKey);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /invalid_request/);
});
