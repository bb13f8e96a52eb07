// Operator CLI (there is no public sign-up). Usage:
//   npm run merchant:create -- --name "Acme" [--tier starter|standard|premium] [--email owner@acme.test --password …] [--industry …] [--time-zone America/Mexico_City] [--json]
//   npm run merchant:suspend -- --merchant mer_… [--reactivate]
//   npm run shop:create -- --merchant mer_… --name "Acme Outlet" [--json]   (its own key pairs, both environments)
//   npm run shop:suspend -- --shop shp_… [--reactivate]
//   npm run keys:roll -- --shop shp_… --env sandbox|production [--json]
//   npm run keys:merchant-wide -- --merchant mer_… --env sandbox|production [--json]
//   npm run shop:methods -- --shop shp_… [--disable 1003 …] [--enable 1004 …]
//   npm run shop:installments -- --shop shp_… --method 1006 [--counts 2,3,6,12] [--min 5.00] [--paid-by merchant|buyer] [--rates 2:249,3:349] [--reset]
//   npm run shop:deposit-methods -- --shop shp_… [--enable dm_spei_pagosur …] [--disable sbx_dm_spei …]
//   npm run deposit-account:disable -- --account eda_… [--reactivate]
//   npm run deposit:held -- [--reason clabe_unknown|pending_mismatch] [--json]   (held deposit notices, with every figure)
//   npm run fx:set -- --currency BRL --rate 5.40       (production rates; older than 24 h = fx_unavailable)
//   npm run user:create -- --merchant mer_… --email dev@acme.test --password … --role owner|developer|viewer
//   npm run user:password -- --email dev@acme.test [--password …]   (random when not given; printed once)
//   npm run qr:register -- --shop shp_… --name "Padaria Sol" --city "Sao Paulo" --mcc 5812   (again: updates it)
//   npm run qr:suspend -- --shop shp_… [--reactivate]     (issued orders can still be paid)
//   npm run qr:reactivate -- --shop shp_…                (the same as qr:suspend --reactivate)
//   npm run topup:addresses -- --network TRON --address T… [--address T…]   (the production deposit-address pool)
//   npm run ledger:verify -- [--full] [--merchant mer_…] [--env sandbox|production]   (exit 1 on warnings)
//   npm run decline:list -- [--provider pagosur] [--json]                (the decline table)
//   npm run decline:set -- --provider pagosur --code 51 --maps-to insufficient_funds [--decision stop] [--priority 100]
//   npm run decline:set -- --provider rapidpay --pattern "saldo insuficiente" --maps-to insufficient_funds
//   npm run decline:delete -- --provider pagosur --code 51                (or --pattern …; --provider * for every provider)
//   npm run claims:attention -- [--json]      (refunds whose provider step failed or stayed unknown for an hour)
//   npm run claims:retry -- --id CLM-…        (run such a refund's step now, not at its next hourly try)
//   npm run routing:evaluate -- --since 7d --rules candidate.json [--merchant mer_…] [--shop shp_…] [--env production] (scripts/routing-evaluate.ts)
// With --json the LAST line of stdout is exactly one JSON object. Secret keys are shown only here.
// `tsx scripts/cli.ts --stdin` runs many commands in one process (see serveStdin). The commands
// themselves are scripts/cli/commands.ts; this file opens the database and runs them.
import { openDatabase } from "./lib/database.ts";
import { deployMigrations } from "./lib/schema-engine.ts";
import { runCommand } from "./cli/commands.ts";

/**
 * `--stdin`: one process for many commands, for test suites that create hundreds of merchants
 * (a tsx start costs seconds on a busy machine). Each input line is a JSON array of arguments;
 * each answer is one line, {"code":0,"data":…} or {"code":1,"error":"…"}, in order. Ends with
 * its input.
 */
async function serveStdin(): Promise<number> {
  const { createInterface } = await import("node:readline");
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let data: unknown = null;
    let answer: Record<string, unknown>;
    try {
      const argv = JSON.parse(line);
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) throw new Error("each line must be a JSON array of strings");
      const code = await runCommand(argv, (_human, d) => (data = d));
      answer = { code, data };
    } catch (err) {
      answer = { code: 1, error: err instanceof Error ? err.message : String(err) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
  return 0;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.DATABASE_POOL_SIZE ??= "2";
  if (database.embedded) await deployMigrations(database.url);
  try {
    if (argv[0] === "--stdin") return await serveStdin();
    return await runCommand(argv, (human, data, json) => console.log(json ? JSON.stringify(data) : human));
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
