// A candidate rule set tried on past traffic (issue 45, "policies tried on history"): the same use
// case as POST /me/routing/evaluate and the dashboard's "Estimate on past traffic"
// (lib/routing/evaluate-rules.ts), from the shell.
//   npm run routing:evaluate -- --since 7d --rules candidate.json [--merchant mer_…] [--shop shp_…] [--env production|sandbox] [--json]
// candidate.json: the body PUT /me/routing takes ({"rules": [...]}) or the rules array alone.
// One of --merchant and --shop is needed (a shop names its merchant). With --json the last line
// of stdout is the answer as the API gives it.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { openDatabase } from "./lib/database.ts";

const { values } = parseArgs({ options: { since: { type: "string", default: "7d" }, rules: { type: "string" }, merchant: { type: "string" }, shop: { type: "string" }, env: { type: "string", default: "production" }, json: { type: "boolean", default: false } } });

async function main(): Promise<number> {
  if (!values.rules || (!values.merchant && !values.shop)) {
    console.error("usage: npm run routing:evaluate -- --since 7d --rules candidate.json [--merchant mer_…] [--shop shp_…] [--env production|sandbox] [--json]");
    return 2;
  }
  if (values.env !== "production" && values.env !== "sandbox") throw new Error("--env is production or sandbox");
  const raw = JSON.parse(readFileSync(values.rules, "utf8")) as unknown;
  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.DATABASE_POOL_SIZE ??= "2";
  try {
    const { db } = await import("@/lib/platform/db");
    const { parseWith } = await import("@/lib/platform/contract/validation");
    const { evaluateRoutingBody } = await import("@/lib/routing/evaluate-schema");
    const { evaluateRoutingRules } = await import("@/lib/routing/evaluate-rules");
    const input = parseWith(evaluateRoutingBody, { rules: Array.isArray(raw) ? raw : (raw as { rules?: unknown }).rules, since: values.since }, "body");
    const shop = values.shop ? await db().shop.findFirst({ where: { id: values.shop, ...(values.merchant ? { merchantId: values.merchant } : {}) }, select: { id: true, merchantId: true } }) : null;
    if (values.shop && !shop) throw new Error(`no shop ${values.shop}${values.merchant ? ` for merchant ${values.merchant}` : ""}`);
    const merchantId = shop?.merchantId ?? values.merchant!;
    const answer = await evaluateRoutingRules({ merchant: { id: merchantId }, environment: values.env, shop: shop ? { id: shop.id } : null }, {}, input);
    if (values.json) {
      console.log(JSON.stringify(answer));
      return 0;
    }
    console.log(`${answer.payments} routed payments since ${answer.since} (${answer.matched} the candidate could have routed alike; effective sample ${answer.effectiveSampleSize})`);
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const row = (name: string, f: typeof answer.inForce) =>
      f ? `| ${name} | ${pct(f.approvalRate.value)} (${pct(f.approvalRate.low)} – ${pct(f.approvalRate.high)}) | ${f.netRevenuePerPaymentUsd.value.toFixed(2)} (${f.netRevenuePerPaymentUsd.low.toFixed(2)} – ${f.netRevenuePerPaymentUsd.high.toFixed(2)}) |` : `| ${name} | — | — |`;
    console.log("\n| | approval rate (95 % interval) | net revenue per payment, USD (95 % interval) |\n|---|---|---|");
    console.log(row("rules in force (observed)", answer.inForce));
    if (!answer.enough) {
      console.log(`\nNo estimate: ${answer.reason}`);
      return 0;
    }
    console.log(row("candidate, IPS (self-normalised)", answer.ips));
    console.log(row("candidate, doubly robust", answer.dr));
    return 0;
  } finally {
    const { db } = await import("@/lib/platform/db");
    await db().$disconnect();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
