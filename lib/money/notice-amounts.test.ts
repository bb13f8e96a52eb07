import { test } from "node:test";
import assert from "node:assert/strict";
import { decimalUnitsText, minorUnitsText } from "@/lib/money/notice-amounts";
import { decimalToMinorDown } from "@/lib/money/amount";

test("minor units in notices: digits up to 10^15; beyond (64 bits and more) refused, not thrown later", () => {
  const ok = (v: string) => minorUnitsText().safeParse(v).success;
  assert.deepEqual(["0", "364000", "1000000000000000"].map(ok), [true, true, true]);
  assert.deepEqual(["1000000000000001", "9223372036854775808", "18446744073709551616", "1".repeat(400), "-1", "1.5", "1e5", ""].map(ok), [false, false, false, false, false, false, false, false]);
});

test("stablecoin units: up to 6 decimals, at most 10^15 cents once rounded down", () => {
  const ok = (v: string) => decimalUnitsText("USD", 6).safeParse(v).success;
  assert.deepEqual(["120.50", "0.000001", "10000000000000", "10000000000000.009999"].map(ok), [true, true, true, true]);
  assert.deepEqual(["10000000000000.01", "92233720368547758.08", "1.1234567", ".5", "1."].map(ok), [false, false, false, false, false]);
  assert.deepEqual([decimalToMinorDown("120.509", "USD"), decimalToMinorDown("007.5", "USD"), decimalToMinorDown("3", "USD")], [12_050n, 750n, 300n]);
});
