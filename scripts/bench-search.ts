// Payment search (`q`, lib/payments/search.ts) over a deep merchant: seeds one merchant with N
// payments (default 100,000) and a second merchant with N/5 sharing the same names, e-mails and
// order ids, in a fresh database of the local PostgreSQL. Then, for each kind of query, prints the
// rows found, the median time of the list use case itself (page of 50 plus count, 7 runs after a
// warm-up) and the plan of the exact statement it runs: with the query's values (custom plan) and
// as the generic plan a named statement would settle on (why searches run unnamed: lib/platform/db.ts).
// Exit 1 when a search reads no index.
//   npx tsx scripts/bench-search.ts [rows=100000]
import pg from "pg";
import { deployMigrations, parseDatabaseUrl } from "./lib/schema-engine.ts";
import { scratchDatabase } from "./lib/scratch-database.ts";

const ROWS = Number(process.argv[2] ?? 100_000);

const FIRST = ["María", "José", "Ana", "Luis", "Camila", "Juan", "Sofía", "Carlos", "Valentina", "Diego", "Lucía", "Mateo", "Isabella", "Andrés", "Gabriela", "Felipe", "Daniela", "Jorge", "Paula", "Ricardo"];
const LAST = ["López", "González", "Pérez", "Rodríguez", "Martínez", "Gómez", "Díaz", "Hernández", "Souza", "Silva", "Rojas", "Castro", "Vargas", "Ramírez", "Torres", "Flores", "Núñez", "Mendoza", "Ortiz", "Cruz"];
const CURRENCIES = [["MXN", 2], ["BRL", 2], ["CLP", 0], ["COP", 2], [null, 2]] as const;
const AMOUNTS = [100, 250, 499, 1000, 1999, 5000, 12_345];

const scratch = await scratchDatabase("lp_bench_search");
const databaseUrl = scratch.url;
let failed = false;
try {
  await deployMigrations(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_ENV ??= "test";
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const { searchKeys } = await import("../lib/payments/search.ts");
  const { listPayments } = await import("../lib/payments/list-payments.ts");
  const { paymentsPageStatement } = await import("../lib/payments/list/pages.ts");
  const { listPaymentsQuery } = await import("../lib/payments/schema.ts");
  const { sql } = await import("../lib/platform/db.ts");

  const target = await createMerchant({ name: "Search bench", tier: "premium" });
  const other = await createMerchant({ name: "Search bench (other)", tier: "premium" });

  // Rows in batches through unnest, with the keys searchKeys() computes for the real insert.
  const t0 = Date.now();
  let someId = "";
  for (const [m, count, tag] of [[target, ROWS, "a"], [other, Math.floor(ROWS / 5), "b"]] as const) {
    for (let start = 0; start < count; start += 5_000) {
      const cols: unknown[][] = Array.from({ length: 13 }, () => []);
      for (let i = start; i < Math.min(count, start + 5_000); i++) {
        const first = FIRST[i % FIRST.length]!;
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
        const [currency, exp] = CURRENCIES[i % CURRENCIES.length]!;
        // One payment in a thousand asks 8,888 (a rare amount); the rest cycle through AMOUNTS.
        const major = i % 1000 === 3 ? 8888 : AMOUNTS[Math.floor(i / 5) % AMOUNTS.length]!;
        const inputAmount = currency === null ? null : BigInt(major) * 10n ** BigInt(exp);
        // A USD payment is asked in USD: its headline is the amount searched.
        const amountUsd = currency === null ? BigInt(major) * 100n : BigInt(major) * 100n / 18n + 1n;
        const row = {
          id: `tx_bench${tag}${String(i).padStart(8, "0")}`,
          merchantOrderId: `ORD-${String(i).padStart(7, "0")}`,
          userEmail: `${first}.${last}${i}@example.com`.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase(),
          userName: `${first} ${last}`,
          inputAmount,
          inputCurrency: currency,
          amountUsd,
        };
        if (tag === "a" && i === Math.floor(count / 2)) someId = row.id;
        const k = searchKeys(row);
        const values = [row.id, row.merchantOrderId, row.userEmail, row.userName, row.inputAmount?.toString() ?? null, row.inputCurrency, row.amountUsd.toString(), k.searchOrderKey, k.searchEmailKey, `{${k.searchNameTerms.join(",")}}`, k.searchAmount.toString(), new Date(Date.UTC(2026, 0, 1) + i * 60_000), m.merchantId];
        values.forEach((v, j) => cols[j]!.push(v));
      }
      await sql(
        `INSERT INTO transactions (id, merchant_order_id, user_email, user_name, input_amount, input_currency, amount_usd, search_order_key, search_email_key, search_name_terms, search_amount, created_at, merchant_id,
           shop_id, environment, status, amount_local, currency_local, payment_method_id, method, rail_name, country, fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, expires_at, updated_at)
         SELECT u.id, u.o, u.e, u.n, u.ia, u.ic, u.usd, u.ok, u.ek, u.nt::text[], u.sa, u.ca, u.m,
           $14, 'sandbox', 'completed', u.usd * 18, 'MXN', 'sbx_spei', 'spei', 'SPEI (test)', 'MEX', 30, 10, 1, 0, 'T+1', 'sandbox', u.ca, u.ca
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::bytea[], $9::bytea[], $10::text[], $11::bigint[], $12::timestamptz[], $13::text[])
           AS u(id, o, e, n, ia, ic, usd, ok, ek, nt, sa, ca, m)`,
        [...cols, m.shopId],
      );
    }
  }
  await sql("ANALYZE transactions");
  console.log(`seeded ${ROWS.toLocaleString("en")} + ${Math.floor(ROWS / 5).toLocaleString("en")} payments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const auth = { merchant: { id: target.merchantId }, shop: null, environment: "sandbox" } as unknown as Parameters<typeof listPayments>[0];
  const cases: Array<[string, string]> = [
    ["e-mail, exact", `ana.lopez${FIRST.indexOf("Ana")}@example.com`],
    ["e-mail, prefix (other case)", "Camila.Rojas"],
    ["order id, prefix", "ord-004200"],
    ["order id, prefix (10k rows)", "ORD-001"],
    ["name, two words", "maria lopez"],
    ["name, word prefix", "gonz"],
    ["amount, rare", "8888"],
    ["amount, common", "499"],
    ["amount, decimals", "12345.00"],
    ["payment id", someId],
    ["nothing matches", "zz-no-such-thing"],
  ];
  console.log("\nquery                              rows (total)   median ms   indexes read (custom plan)   (generic plan)");
  const c = new pg.Client(parseDatabaseUrl(databaseUrl));
  c.on("error", () => {});
  await c.connect();
  const plans: string[] = [];
  for (const [label, q] of cases) {
    const query = listPaymentsQuery.parse({ q, limit: "50" });
    const first = await listPayments(auth, query);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const s = performance.now();
      await listPayments(auth, query);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const st = paymentsPageStatement(auth, query);
    const custom = (await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.values)).rows.map((r) => r["QUERY PLAN"] as string);
    await c.query("SET plan_cache_mode = force_generic_plan");
    await c.query(`PREPARE p AS ${st.text}`);
    // EXECUTE takes no bind parameters: the values go in as literals.
    const literal = (v: unknown): string =>
      Buffer.isBuffer(v) ? `'\\x${v.toString("hex")}'` : Array.isArray(v) ? c.escapeLiteral(`{${v.join(",")}}`) : typeof v === "number" ? String(v) : c.escapeLiteral(String(v));
    const generic = (await c.query(`EXPLAIN EXECUTE p(${st.values.map(literal).join(", ")})`)).rows.map((r) => r["QUERY PLAN"] as string);
    await c.query("DEALLOCATE p; RESET plan_cache_mode");
    const indexes = (plan: string[]) => [...new Set(plan.join("\n").match(/(?:Index|Bitmap Index) Scan(?: Backward)? (?:using|on) (\w+)/g)?.map((m) => m.split(/ (?:using|on) /)[1]!.replace(/^transactions_(merchant_id_environment_)?/, "").replace(/_idx$/, "")) ?? [])];
    const seq = (plan: string[]) => plan.some((l) => l.includes("Seq Scan"));
    const total = (first as { pagination?: { total: number } }).pagination?.total ?? first.data.length;
    const ci = indexes(custom);
    const gi = indexes(generic);
    if (seq(custom) || ci.length === 0) failed = true;
    console.log(
      `${label.padEnd(34)} ${`${first.data.length} (${total})`.padStart(13)}   ${times[3]!.toFixed(1).padStart(9)}   ${(seq(custom) ? "SEQ SCAN " : "") + ci.join(", ")}   ${(seq(generic) ? "SEQ SCAN " : "") + gi.join(", ")}`,
    );
    plans.push(`--- ${label}: q=${JSON.stringify(q)}\n${custom.join("\n")}`);
  }
  await c.end();
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of each page statement (custom plan):\n\n${plans.join("\n\n")}`);

  // What the keys cost the hot insert: sequential single-row inserts (the payment insert's shape,
  // keys computed by searchKeys), with the four search indexes and then without them.
  const insertOne = async (i: number) => {
    const row = { merchantOrderId: `INS-${i}`, userEmail: `buyer${i}@example.com`, userName: "Valentina Rodríguez", inputAmount: 49900n, inputCurrency: "MXN", amountUsd: 2687n };
    const k = searchKeys(row);
    await sql(
      `INSERT INTO transactions (id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, input_amount, input_currency, payment_method_id, method, rail_name, country,
         fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, merchant_order_id, user_email, user_name, expires_at, created_at, updated_at,
         search_order_key, search_email_key, search_name_terms, search_amount)
       VALUES ($1, $2, $3, 'sandbox', 'pending', $4::bigint, $5::bigint, 'MXN', $5::bigint, 'MXN', 'sbx_spei', 'spei', 'SPEI (test)', 'MEX', 30, 10, 1, 0, 'T+1', 'sandbox', $6, $7, $8, now(), now(), now(),
         $9::bytea, $10::bytea, $11::text[], $12::bigint)`,
      [`tx_ins${i}`, target.merchantId, target.shopId, row.amountUsd, row.inputAmount, row.merchantOrderId, row.userEmail, row.userName, k.searchOrderKey, k.searchEmailKey, k.searchNameTerms, k.searchAmount],
    );
  };
  const timeInserts = async (from: number, n: number) => {
    for (let i = from; i < from + 200; i++) await insertOne(i); // warm-up
    const s = performance.now();
    for (let i = from + 200; i < from + 200 + n; i++) await insertOne(i);
    return (performance.now() - s) / n;
  };
  // Alternated (with, without, with again) so the table's growth and the machine's noise show.
  const N = 3_000;
  const INDEXES = [
    ["transactions_merchant_id_environment_search_order_key_idx", `("merchant_id", "environment", "search_order_key")`],
    ["transactions_merchant_id_environment_search_email_key_idx", `("merchant_id", "environment", "search_email_key")`],
    ["transactions_merchant_id_environment_search_amount_idx", `("merchant_id", "environment", "search_amount")`],
    ["transactions_search_name_terms_idx", `USING GIN ("search_name_terms")`],
  ];
  const withIndexes = await timeInserts(0, N);
  for (const [ix] of INDEXES) await sql(`DROP INDEX "${ix}"`);
  const without = await timeInserts(100_000, N);
  for (const [ix, def] of INDEXES) await sql(`CREATE INDEX "${ix}" ON "transactions" ${def}`);
  const withAgain = await timeInserts(200_000, N);
  console.log(`\npayment-shaped insert, ${N.toLocaleString("en")} sequential each, on ${(ROWS * 1.2).toLocaleString("en")}+ rows (ms per insert): with the search indexes ${withIndexes.toFixed(3)}, without ${without.toFixed(3)}, with again ${withAgain.toFixed(3)}`);

  const { closeDb } = await import("../lib/platform/db.ts").then((m) => ({ closeDb: (m as { closeDb?: () => Promise<void> }).closeDb }));
  await closeDb?.();
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await scratch.drop();
}
if (failed) console.error("\nFAIL: a search read no index");
process.exit(failed ? 1 : 0);
