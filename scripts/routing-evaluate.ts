// A candidate rule set tried on past traffic (issue 45, "policies tried on history"): the same use
// case as POST /me/routing/evaluate and the dashboard's "Estimate on past traffic"
// (lib/routing/evaluate-rules.ts), from the shell, run by the operator CLI (scripts/cli.ts opens
// the database):
//   npm run routing:evaluate -- --since 7d --rules candidate.json [--merchant mer_…] [--shop shp_…] [--env production|sandbox] [--json]
// candidate.json: the body PUT /me/routing takes ({"rules": [...]}) or the rules array alone.
// One of --merchant and --shop is needed (a shop names its merchant). With --json the last line
// of stdout is the answer as the API gives it.
import { readFileSync } from "node:fs";

type Args = { since?: string; rules?: string; merchant?: string; shop?: string; env?: string };

export async function routingEvaluate(args: Args, out: (human: string, data: unknown) => void): Promise<number> {
  if (!args.rules || (!args.merchant && !args.shop)) throw new Error("usage: npm run routing:evaluate -- --since 7d --rules candidate.json [--merchant mer_…] [--shop shp_…] [--env production|sandbox] [--json]");
  const environment = args.env ?? "production";
  if (environment !== "production" && environment !== "sandbox") throw new Error("--env must be sandbox or production");
  const raw = JSON.parse(readFileSync(args.rules, "utf8")) as unknown;
  const { db } = await import("@/lib/platform/db");
  const { parseWith } = await import("@/lib/platform/contract/validation");
  const { evaluateRoutingBody } = await import("@/lib/routing/evaluate-schema");
  const { evaluateRoutingRules } = await import("@/lib/routing/evaluate-rules");
  const input = parseWith(evaluateRoutingBody, { rules: Array.isArray(raw) ? raw : (raw as { rules?: unknown }).rules, since: args.since ?? "7d" }, "body");
  const shop = args.shop ? await db().shop.findFirst({ where: { id: args.shop, ...(args.merchant ? { merchantId: args.merchant } : {}) }, select: { id: true, merchantId: true } }) : null;
  if (args.shop && !shop) throw new Error(`no shop ${args.shop}${args.merchant ? ` for merchant ${args.merchant}` : ""}`);
  const answer = await evaluateRoutingRules({ merchant: { id: shop?.merchantId ?? args.merchant! }, environment, shop: shop ? { id: shop.id } : null }, {}, input);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const row = (name: string, f: typeof answer.inForce) =>
    f ? `| ${name} | ${pct(f.approvalRate.value)} (${pct(f.approvalRate.low)} – ${pct(f.approvalRate.high)}) | ${f.netRevenuePerPaymentUsd.value.toFixed(2)} (${f.netRevenuePerPaymentUsd.low.toFixed(2)} – ${f.netRevenuePerPaymentUsd.high.toFixed(2)}) |` : `| ${name} | — | — |`;
  const lines = [
    `${answer.payments} routed payments since ${answer.since} (${answer.matched} the candidate could have routed alike; effective sample ${answer.effectiveSampleSize})`,
    "",
    "| | approval rate (95 % interval) | net revenue per payment, USD (95 % interval) |",
    "|---|---|---|",
    row("rules in force (observed)", answer.inForce),
    ...(answer.enough ? [row("candidate, IPS (self-normalised)", answer.ips), row("candidate, doubly robust", answer.dr)] : ["", `No estimate: ${answer.reason}`]),
  ];
  out(lines.join("\n"), answer);
  return 0;
}
