import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { nameTerms, nameWords, planSearch, prefixEnd, searchCondition, searchKeys } from "@/lib/payments/search";
import { CURRENCY_EXPONENTS } from "@/lib/money/currency";

test("name terms: every 2-20 character prefix of each word, lower case, accents folded", () => {
  assert.deepEqual(nameWords("José  PÉREZ-Núñez"), ["jose", "perez", "nunez"]);
  assert.deepEqual(nameTerms("Ana B"), ["an", "ana"]);
  assert.ok(nameTerms("María José").includes("jos"));
  assert.equal(Math.max(...nameTerms("Wolfeschlegelsteinhausenbergerdorff").map((t) => t.length)), 20);
  assert.deepEqual(nameTerms(null), []);
});

test("plan: the query decides which keys apply", () => {
  const email = planSearch("  Ana@Example.com ")!;
  assert.equal(email.prefix.from.toString(), "ana@example.com");
  assert.equal(email.email, true);
  assert.deepEqual(email.nameTerms, []);
  assert.equal(email.amount, null);

  const name = planSearch("jose PER")!;
  assert.equal(name.email, false, "a query with a space is no e-mail prefix");
  assert.deepEqual(name.nameTerms, ["jose", "per"]);

  assert.equal(planSearch("499")!.amount, 49900n);
  assert.equal(planSearch("499.00")!.amount, 49900n);
  assert.equal(planSearch("499,5")!.amount, 49950n);
  assert.deepEqual(planSearch("499")!.nameTerms, [], "a number is no name");
  assert.equal(planSearch("4.999")!.amount, null, "three decimals are not an amount");

  assert.equal(planSearch("tx_AbC123xyz")!.paymentId, "tx_AbC123xyz");
  assert.equal(planSearch("tx_AbC123xyz")!.email, false);
  assert.deepEqual(planSearch("tx_AbC123xyz")!.nameTerms, []);
  assert.deepEqual(planSearch("ord-1234")!.nameTerms, [], "digits: no name");
  assert.equal(planSearch("order-12")!.paymentId, null);
  assert.equal(planSearch("  "), null);
  assert.equal(planSearch(undefined), null);
});

test("prefix ranges hold exactly the byte strings that start with the prefix", () => {
  const b = (s: string) => Buffer.from(s, "utf8");
  const inRange = (s: string, p: string) => Buffer.compare(b(s), b(p)) >= 0 && Buffer.compare(b(s), prefixEnd(b(p))) < 0;
  assert.equal(prefixEnd(b("ord")).toString(), "ore");
  assert.deepEqual(prefixEnd(Buffer.from([0x61, 0xff])), Buffer.from([0x62]));
  for (const s of ["ord", "ord-1", "ordz", "ord\u{10ffff}", "ordé"]) assert.ok(inRange(s, "ord"), s);
  for (const s of ["ore", "orc", "or", "or-d"]) assert.ok(!inRange(s, "ord"), s);
  for (const s of ["josé", "josé-1"]) assert.ok(inRange(s, "josé"), s);
  assert.ok(!inRange("josf", "josé"));
});

test("condition: parameters numbered from the caller's, amounts as text (the count cache's key is JSON)", () => {
  const c = searchCondition(planSearch("499")!, 4);
  assert.match(c.clause, /search_order_key >= \$4::bytea AND search_order_key < \$5::bytea/);
  assert.match(c.clause, /search_amount = \$6::bigint/);
  assert.deepEqual(c.values.map(String), ["499", "49:", "49900"]);
  assert.doesNotThrow(() => JSON.stringify(c.values));
});

test("amount key: the asked amount in hundredths of its major unit, whatever the exponent", () => {
  const base = { merchantOrderId: "A-1", userEmail: " Ana@X.com ", userName: "Ana", amountUsd: 2500n };
  assert.equal(searchKeys({ ...base, inputAmount: 49900n, inputCurrency: "MXN" }).searchAmount, 49900n);
  assert.equal(searchKeys({ ...base, inputAmount: 499n, inputCurrency: "CLP" }).searchAmount, 49900n);
  assert.equal(searchKeys({ ...base, inputAmount: null, inputCurrency: null }).searchAmount, 2500n);
  const k = searchKeys({ ...base, inputAmount: null, inputCurrency: null });
  assert.equal(k.searchOrderKey!.toString(), "a-1");
  assert.equal(k.searchEmailKey!.toString(), "ana@x.com");
});

test("the migration's backfill folds names like nameWords and scales the same currencies", () => {
  const dir = path.resolve(import.meta.dirname, "../../prisma/migrations");
  const file = readdirSync(dir).find((d) => d.endsWith("_payment_search"))!;
  const sqlText = readFileSync(path.join(dir, file, "migration.sql"), "utf8");
  const m = /translate\(t\."user_name", '([^']+)', '([^']+)'\)/.exec(sqlText)!;
  const from = Array.from(m[1]!);
  const to = Array.from(m[2]!);
  assert.equal(from.length, to.length);
  const expected = new Map<string, string>();
  for (let c = 0xc0; c <= 0x24f; c++) {
    const ch = String.fromCodePoint(c);
    // nameWords' folding of one letter, before its split (Ŀ and ŉ fold to a letter and a separator).
    const folded = ch.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
    if (/^[a-z]$/.test(folded)) expected.set(ch, folded);
  }
  assert.deepEqual(new Map(from.map((c, i) => [c, to[i]!])), expected);
  const zeroExponent = Object.entries(CURRENCY_EXPONENTS).filter(([, e]) => e === 0).map(([c]) => c);
  assert.deepEqual(zeroExponent, ["CLP"], "the backfill scales only CLP by 100: add the new currency there");
});
