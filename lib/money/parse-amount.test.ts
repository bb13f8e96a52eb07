import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAmount } from "@/lib/money/parse-amount";
import { AppError } from "@/lib/platform/errors";

test("parseAmount: positive numbers with the currency's decimals become minor units", () => {
  assert.equal(parseAmount(12.5, "USD"), 1250n);
  assert.equal(parseAmount(1000, "CLP"), 1000n);
  assert.equal(parseAmount(0.01, "MXN"), 1n);
});

test("parseAmount: anything else is amount_invalid naming the param, with the caller's status", () => {
  for (const bad of [0, -1, 1.001, Number.NaN, Infinity, "10", null, undefined, 1e16, 10.5]) {
    const currency = bad === 10.5 ? "CLP" : "USD";
    assert.throws(() => parseAmount(bad, currency, "amountUsd"), (e: unknown) => e instanceof AppError && e.code === "amount_invalid" && e.param === "amountUsd", String(bad));
  }
  assert.throws(() => parseAmount(-5, "MXN", "amount", 422), (e: unknown) => e instanceof AppError && e.status === 422);
});
