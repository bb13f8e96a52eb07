// The SDK as a user meets it: `npm pack` (which builds ESM and CommonJS with declarations), the
// tarball installed into a scratch project outside the repository (offline: openapi-fetch and its
// helper packed from the repository's node_modules), a small program compiled against it under
// strict TypeScript and run against the test server (create a payment, simulate it, verify its
// webhook, narrowing the event by its type), `require()` from CommonJS, and the packed CLI.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { newMerchant, API_URL } from "../../e2e/api/helpers.ts";
import { db } from "@/lib/platform/db";

const repo = path.resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(path.join(os.tmpdir(), "sdk-packed-"));
after(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await db().$disconnect();
});

// Run under `npm test`, this process inherits npm_* settings (prefixes among them) that would
// point a nested npm at the repository: the scratch project's npm gets none of them.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))) as NodeJS.ProcessEnv;
const npm = (args: string[], cwd: string) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", env: { ...cleanEnv, npm_config_update_notifier: "false" } });

/** The first call of docs/integrators/payments.md ("The TypeScript SDK"), webhook included: compiled under strict, run against the server. */
const SAMPLE = `
import http from "node:http";
import { createClient, unwrap, ApiError, type WebhookEvent, type EventOf } from "@latam-payments/sdk";

const client = createClient({ baseUrl: process.env.API_BASE!, secretKey: process.env.SK!, publishableKey: process.env.PK! });

// A local endpoint the sandbox delivers to.
let arrived: (d: { body: string; headers: http.IncomingHttpHeaders }) => void = () => {};
const delivery = new Promise<{ body: string; headers: http.IncomingHttpHeaders }>((resolve) => (arrived = resolve));
const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c: string) => (body += c));
  req.on("end", () => {
    res.end("ok");
    arrived({ body, headers: req.headers });
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
const { port } = server.address() as { port: number };

const hook = await unwrap(client.POST("/webhooks", { body: { url: \`http://127.0.0.1:\${port}/hooks\`, events: ["payment.completed"] } }));
const payment = await unwrap(client.POST("/payments", { body: { amount: 25, paymentMethodId: "sbx_card", merchantOrderId: "packed-1" } }));
await unwrap(client.POST("/payments/{id}/simulate", { params: { path: { id: payment.transactionId } }, body: { action: "paid" } }));

const timeout = setTimeout(() => { console.error("no delivery"); process.exit(3); }, 20_000);
const d = await delivery;
clearTimeout(timeout);
const event: WebhookEvent = client.webhooks.verify(d.body, d.headers, hook.secret);

function describe(e: WebhookEvent): string {
  switch (e.type) {
    case "payment.completed":
    case "payment.failed":
      return \`\${e.data.object.id} \${e.data.object.status} \${e.data.object.amountLocal} \${e.data.object.currencyLocal}\`;
    case "payout.failed":
      return e.data.object.failureReason ?? "";
    case "claim.opened":
      return e.data.object.kind;
    default:
      return e.type;
  }
}
const completed = (e: WebhookEvent): e is EventOf<"payment.completed"> => e.type === "payment.completed";

let missing = "";
try {
  await unwrap(client.GET("/payments/{id}", { params: { path: { id: "tx_missing" } } }));
} catch (e) {
  if (e instanceof ApiError) missing = e.code;
}
console.log(JSON.stringify({ paymentId: payment.transactionId, type: event.type, objectId: completed(event) ? event.data.object.id : null, described: describe(event), missing }));
server.close();
`;

const SAMPLE_CJS = `
import { createClient, verifyWebhook, type WebhookEventType } from "@latam-payments/sdk";
const t: WebhookEventType = "payout.completed";
const client = createClient({ baseUrl: "http://127.0.0.1:1/api/v1", secretKey: "sk_test_x" });
console.log(JSON.stringify({ createClient: typeof createClient, verify: typeof verifyWebhook, get: typeof client.GET, t }));
`;

test("the packed SDK installs into a scratch project, compiles under strict TypeScript and runs against the server", async () => {
  const packs = path.join(scratch, "packs");
  mkdirSync(packs);
  // prepack builds dist/esm and dist/cjs with declarations.
  npm(["pack", "--pack-destination", packs], path.join(repo, "sdk"));
  npm(["pack", "./node_modules/openapi-fetch", "./node_modules/openapi-typescript-helpers", "--pack-destination", packs], repo);
  const tarballs = readdirSync(packs).filter((f) => f.endsWith(".tgz")).map((f) => path.join(packs, f));
  assert.equal(tarballs.length, 3, readdirSync(packs).join(", "));
  assert.ok(tarballs.some((t) => /latam-payments-sdk-\d+\.\d+\.\d+\.tgz$/.test(t)));

  const app = path.join(scratch, "app");
  mkdirSync(path.join(app, "src"), { recursive: true });
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "scratch-integration", private: true, type: "module" }));
  npm(["install", "--offline", ...tarballs], app);

  writeFileSync(path.join(app, "src/sample.ts"), SAMPLE);
  writeFileSync(path.join(app, "src/sample-cjs.cts"), SAMPLE_CJS);
  writeFileSync(
    path.join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, outDir: "dist", rootDir: "src", typeRoots: [path.join(repo, "node_modules/@types")], types: ["node"] },
      include: ["src"],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(repo, "node_modules/typescript/bin/tsc"), "-p", app], { cwd: app, encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc: ${tsc.stdout}${tsc.stderr}`);

  // CommonJS: require() resolves dist/cjs.
  const cjs = JSON.parse(execFileSync(process.execPath, [path.join(app, "dist/sample-cjs.cjs")], { cwd: app, encoding: "utf8" }));
  assert.deepEqual(cjs, { createClient: "function", verify: "function", get: "function", t: "payout.completed" });

  const m = await newMerchant();
  const run = spawnSync(process.execPath, [path.join(app, "dist/sample.js")], {
    cwd: app,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env.PATH, NODE_ENV: "production", API_BASE: `${API_URL}/api/v1`, SK: m.sandbox.secretKey, PK: m.sandbox.publishableKey },
  });
  assert.equal(run.status, 0, `sample: ${run.stdout}${run.stderr}`);
  const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
  assert.equal(out.type, "payment.completed");
  assert.equal(out.objectId, out.paymentId);
  assert.match(out.described, new RegExp(`^${out.paymentId} completed `));
  assert.equal(out.missing, "transaction_not_found");

  // The packed CLI: `npx @latam-payments/sdk listen --print-secret` prints the listen inbox's secret.
  const secret = spawnSync(path.join(app, "node_modules/.bin/latam-payments"), ["listen", "--print-secret", "--base-url", `${API_URL}/api/v1`], {
    cwd: app,
    encoding: "utf8",
    timeout: 30_000,
    env: { PATH: process.env.PATH, NODE_ENV: "production", LATAM_PAYMENTS_SECRET_KEY: m.sandbox.secretKey },
  });
  assert.equal(secret.status, 0, secret.stderr);
  assert.match(secret.stdout.trim(), /^whsec_[A-Za-z0-9+/=]+$/);
  const live = spawnSync(path.join(app, "node_modules/.bin/latam-payments"), ["listen", "--forward-to", "http://localhost:3000/hooks", "--base-url", `${API_URL}/api/v1`, "--api-key", m.production.secretKey], { cwd: app, encoding: "utf8", timeout: 30_000 });
  assert.equal(live.status, 1);
  assert.match(live.stderr, /sandbox/);
});
