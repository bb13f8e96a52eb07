// The market in the real providers' simulators: a bench buyer's SPEI charge, sent by the real
// connector (lib/providers/<code>/connector.ts) to Mercado Pago's and EBANX's simulators while a
// scenario runs, comes back as the market decided it; a decline's provider code, classified by the
// decline rows the migrations seed (read from their SQL, no database), ends the cascade and counts
// in routing's window exactly as the common simulators' answer for the same reason does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { MercadoPagoConnector } from "../../lib/providers/mercadopago/connector.ts";
import { EbanxConnector } from "../../lib/providers/ebanx/connector.ts";
import { REFUSALS } from "../../lib/providers/ebanx/transformers.ts";
import type { ProviderConfig } from "../../lib/providers/registry.ts";
import type { ChargeRequest } from "../../lib/providers/types.ts";
import { railById } from "../../lib/rails/rails.ts";
import { classifyWith, compileRules, type DeclineRuleRow } from "../../lib/routing/declines.ts";
import { BUYER_DECLINES } from "../../lib/routing/window.ts";
import { startMercadoPagoSimulator } from "./mercadopago/simulator.ts";
import { ebanxNoticeKeys, startEbanxSimulator } from "./ebanx/simulator.ts";
import { DECLINE_ANSWERS } from "./decline-answers.ts";
import { benchEmail, decide, type MarketDecision, type Scenario } from "./market.ts";
import { MARKET_DECLINES, type MarketProviderCode, type MarketReason } from "./market-real-providers.ts";

const REASONS: MarketReason[] = ["insufficient_funds", "do_not_honor", "suspected_fraud", "invalid_document"];
const CODES: MarketProviderCode[] = ["mercadopago", "ebanx"];

/** Every decline_rules row the migrations insert, parsed from their SQL. */
function seededDeclineRows(): DeclineRuleRow[] {
  const dir = path.join(import.meta.dirname, "../../prisma/migrations");
  const rows: DeclineRuleRow[] = [];
  for (const m of readdirSync(dir)) {
    const file = path.join(dir, m, "migration.sql");
    let sql: string;
    try {
      sql = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (!sql.includes('"decline_rules"')) continue;
    for (const r of sql.matchAll(/\(\s*'([^']+)',\s*'([^']+)',\s*'(code|pattern)',\s*'((?:[^']|'')*)',\s*'([^']+)',\s*'([^']+)',\s*(\d+)/g)) {
      rows.push({ provider: r[2]!, matchKind: r[3]!, match: r[4]!.replace(/''/g, "'"), declineCode: r[5]!, decision: r[6]!, priority: Number(r[7]) });
    }
  }
  return rows;
}
const rows = seededDeclineRows();
const rules = compileRules(rows);
/** What routing does with a refusal: whether the cascade ends, and whether the window counts it against the provider. */
const fate = (provider: string, reason: string) => {
  const c = classifyWith(rules, provider, reason);
  return { declineCode: c.declineCode, endsCascade: c.decision !== "retry_next", countsAgainstProvider: !BUYER_DECLINES.has(c.declineCode) };
};

test("the decline rows are read from the migrations (the common, MP and EBANX providers' rows among them)", () => {
  for (const p of ["pagosur", "mercadopago", "ebanx", "*"]) assert.ok(rows.some((r) => r.provider === p), p);
});

for (const code of CODES) {
  for (const reason of REASONS) {
    test(`${code}: the market's ${reason} is answered with ${MARKET_DECLINES[code][reason].code}, which fares as the common simulators' ${reason}`, () => {
      const entry = MARKET_DECLINES[code][reason];
      const common = fate("pagosur", DECLINE_ANSWERS.pagosur![reason].reason);
      assert.equal(common.declineCode, reason, "the common simulator's answer maps to the reason itself");
      const mine = fate(code, entry.code);
      assert.equal(mine.declineCode, entry.mapsTo, "the table says what the row maps it to");
      assert.equal(mine.endsCascade, true, "the cascade ends at this provider, as it does today");
      assert.equal(mine.countsAgainstProvider, common.countsAgainstProvider, "routing's window counts it as it counts the common answer");
      if (entry.mapsTo !== reason) {
        // A substitute only while the provider publishes no code that maps to the reason itself and ends the cascade.
        const exact = rows.filter((r) => r.provider === code && r.declineCode === reason && r.decision !== "retry_next");
        assert.deepEqual(exact.map((r) => r.match), [], `a row now maps ${reason} for ${code}: answer with it`);
      }
      if (code === "ebanx") assert.ok(REFUSALS.has(entry.code), "the EBANX connector reports this code as a decline");
    });
  }
}

// A scenario where the draws give every kind of answer among the first payments: a tenth of the
// buyers refused everywhere, approval 0.5, an outage over the last fifth.
const N = 200;
const scenario: Scenario = {
  name: "mixed",
  description: "every kind of answer",
  seed: 7,
  n: N,
  hardDeclineShare: 0.3,
  providers: Object.fromEntries(CODES.map((c) => [c, { approval: 0.5, latencyMs: 1, outage: { from: 0.8, to: 1 }, costBp: 60, fixedCents: 10 }])),
};
const spei = railById("1003")!;
const charge = (id: string, email: string): ChargeRequest => ({ transactionId: id, rail: spei, amountLocalMinor: 45_500n, currency: "MXN", buyer: { name: "Juan Perez", email, documentId: "GODE561231GR8" }, notifyUrl: "http://127.0.0.1:9/api/v1/providers/{provider}/notifications" }) as ChargeRequest;

let stops: Array<() => Promise<void>> = [];
const connectors: Record<MarketProviderCode, { createCharge: (r: ChargeRequest) => Promise<any> }> = {} as never;
const controls: Record<MarketProviderCode, (p: string, body?: unknown) => Promise<any>> = {} as never;

before(async () => {
  const config = (code: string, url: string, secret: string, noticeSecret: string): ProviderConfig => ({ code, kind: "real", baseUrl: url, secret, noticeSecret, timeoutMs: 2000, rails: null }) as ProviderConfig;
  const mp = await startMercadoPagoSimulator({ secret: "TEST-market-0123", noticeSecret: "mp-notices", noticeUrl: "http://127.0.0.1:9/unused" });
  const keys = ebanxNoticeKeys();
  const ebanx = await startEbanxSimulator({ secret: "ebanx_market_key", noticeSecret: keys.privateKey, noticeUrl: "http://127.0.0.1:9/unused" });
  stops = [mp.stop, ebanx.stop];
  connectors.mercadopago = new MercadoPagoConnector(config("mercadopago", mp.url, "TEST-market-0123", "mp-notices"));
  connectors.ebanx = new EbanxConnector(config("ebanx", ebanx.url, "ebanx_market_key", keys.publicKey));
  for (const [code, url] of [["mercadopago", mp.url], ["ebanx", ebanx.url]] as const) {
    controls[code] = async (p, body = {}) => (await fetch(`${url}/_control/${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
  }
});
after(async () => {
  for (const stop of stops) await stop();
});

/** The first payment index the market answers with `mode` (and `reason`) at this provider. */
const firstIndex = (code: string, want: (d: MarketDecision) => boolean) => {
  for (let i = 0; i < N; i++) if (want(decide(scenario, code, i))) return i;
  throw new Error(`no payment of the scenario is answered so by ${code}`);
};

for (const code of CODES) {
  test(`${code}: with a market set, a bench buyer's SPEI charge is accepted, refused with the table's code, or unavailable (5xx) as decide() says; reset ends the market`, async () => {
    assert.deepEqual(await controls[code]("market", { scenario }), { market: "mixed" });
    const run = `${code}_${Date.now()}`;
    const accept = firstIndex(code, (d) => d.mode === "accept");
    const accepted = await connectors[code].createCharge(charge(`${run}_a`, benchEmail(accept)));
    assert.equal(accepted.kind, "accepted", JSON.stringify(accepted));
    for (const reason of REASONS) {
      const i = firstIndex(code, (d) => d.mode === "decline" && d.reason === reason);
      const out = await connectors[code].createCharge(charge(`${run}_${reason}`, benchEmail(i)));
      assert.deepEqual([out.kind, out.reason], ["declined", MARKET_DECLINES[code][reason].code], `${reason} (payment ${i})`);
    }
    const down = firstIndex(code, (d) => d.mode === "error");
    const failed = await connectors[code].createCharge(charge(`${run}_e`, benchEmail(down)));
    assert.deepEqual([failed.kind, failed.reason], ["unavailable", "http_503"]);
    // Not a bench buyer: the rules answer (none set: accepted), market or not.
    assert.equal((await connectors[code].createCharge(charge(`${run}_other`, "ana@example.com"))).kind, "accepted");
    // After reset the market is gone: the buyer the market refused is accepted.
    await controls[code]("reset");
    const refused = firstIndex(code, (d) => d.mode === "decline");
    assert.equal((await connectors[code].createCharge(charge(`${run}_after`, benchEmail(refused)))).kind, "accepted");
  });
}
