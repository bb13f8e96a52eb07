import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { buyerPrice, creditUsd } from "@/lib/money/price";

describe("the price rule (decisions.md, Money)", () => {
  test("in the rail's own currency the buyer pays exactly what was asked; the markup lowers only the USD credit", () => {
    const asked = { currency: "BRL", inputMinor: 15_000n };
    assert.equal(buyerPrice(asked, "BRL", { input: "5.40", rail: "5.40" }), 15_000n);
    assert.equal(creditUsd(asked, "5.40"), 2_722n); // 150 ÷ 5.40 × 0.98 = 27.222… -> 27.22
    assert.equal(buyerPrice({ currency: "MXN", inputMinor: 49_900n }, "MXN", { input: "18.20", rail: "18.20" }), 49_900n);
    assert.equal(buyerPrice({ currency: "COP", inputMinor: 6_000_000n }, "COP", { input: "4100", rail: "4100" }), 6_000_000n);
    assert.equal(buyerPrice({ currency: "CLP", inputMinor: 9_990n }, "CLP", { input: "950", rail: "950" }), 9_990n);
  });

  test("USD is converted for the buyer at the mid rate and credited as is", () => {
    const asked = { currency: "USD", inputMinor: 10_000n };
    assert.equal(creditUsd(asked, null), 10_000n);
    assert.equal(buyerPrice(asked, "BRL", { input: null, rail: "5.40" }), 54_000n);
    assert.equal(buyerPrice(asked, "USD", { input: null, rail: "1" }), 10_000n);
  });

  test("a third currency is converted for the buyer at the mid rates, never with the markup", () => {
    // 1000 MXN ÷ 18.20 = 54.945… -> 54.95 USD; × 5.40 = 296.73 BRL.
    assert.equal(buyerPrice({ currency: "MXN", inputMinor: 100_000n }, "BRL", { input: "18.20", rail: "5.40" }), 29_673n);
    assert.throws(() => buyerPrice({ currency: "MXN", inputMinor: 100_000n }, "BRL", { input: null, rail: "5.40" }), /no rate/);
  });
});
