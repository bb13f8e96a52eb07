// The settlement destination over real HTTP (decisions.md "Settlements (batches)"): GET before
// and after a PUT, per environment, addresses checked for their network, `capabilities.crypto`.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const EVM = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const put = (key: string, body: unknown) => api("/me/settlement-destination", { key, method: "PUT", body });

test("/me lists the supported asset-network pairs in capabilities.crypto", async () => {
  const m = await newMerchant();
  for (const key of [m.sandbox.secretKey, m.production.secretKey]) {
    const r = await api("/me", { key });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.capabilities.crypto, ["USDT-TRON", "USDT-ETHEREUM", "USDT-POLYGON", "USDC-ETHEREUM", "USDC-POLYGON"]);
  }
});

test("a destination is null until set, then kept per environment", async () => {
  const m = await newMerchant();
  const sb = m.sandbox.secretKey;
  assert.deepEqual((await api("/me/settlement-destination", { key: sb })).body, { destination: null });
  const set = await put(sb, { asset: "USDT", network: "TRON", address: TRON });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.body.destination.address, TRON);
  assert.equal((await api("/me/settlement-destination", { key: sb })).body.destination.network, "TRON");
  assert.deepEqual((await api("/me/settlement-destination", { key: m.production.secretKey })).body, { destination: null });
  const moved = await put(m.production.secretKey, { asset: "USDC", network: "POLYGON", address: EVM.toLowerCase() });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await api("/me/settlement-destination", { key: sb })).body.destination.asset, "USDT");
  assertEnvelope(await api("/me/settlement-destination", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
});

test("wrong addresses, pairs and shapes are 400 invalid_request naming the field", async () => {
  const m = await newMerchant();
  const sb = m.sandbox.secretKey;
  const cases: [unknown, string][] = [
    [{ asset: "USDT", network: "TRON", address: TRON.slice(0, -1) + "u" }, "address"],
    [{ asset: "USDT", network: "ETHEREUM", address: "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }, "address"],
    [{ asset: "USDT", network: "POLYGON", address: TRON }, "address"],
    [{ asset: "USDC", network: "TRON", address: TRON }, "network"],
    [{ asset: "BTC", network: "TRON", address: TRON }, "asset"],
  ];
  for (const [body, param] of cases) {
    const r = await put(sb, body);
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, param, JSON.stringify(body));
  }
  const missing = await put(sb, { asset: "USDT", network: "TRON" });
  assertEnvelope(missing, "missing_field", 400);
  assert.equal(missing.body.error.param, "address");
  assert.deepEqual((await api("/me/settlement-destination", { key: sb })).body, { destination: null });
});
