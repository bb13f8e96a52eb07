import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { formatRate, localToUsd, parseRate, presentmentToUsd, RATE_SCALE_DIGITS, usdToLocal } from "@/lib/money/fx";

describe("parseRate / formatRate", () => {
  test("a rate is its decimal value scaled by 10^10", () => {
    assert.equal(RATE_SCALE_DIGITS, 10);
    assert.equal(parseRate("5.4321"), 54_321_000_000n);
    assert.equal(parseRate("1"), 10_000_000_000n);
    assert.equal(parseRate("950"), 9_500_000_000_000n);
    assert.equal(parseRate("0.0000000001"), 1n);
    assert.equal(parseRate(" 18.20 "), 182_000_000_000n);
  });

  test("round trip formatRate(parseRate(s)) gives the canonical form", () => {
    for (const s of ["1", "5.4", "18.2", "4100", "0.92", "3.75", "0.0000000001", "1234.5678901234", "17.0000000001"]) {
      assert.equal(formatRate(parseRate(s)), s);
    }
    assert.equal(formatRate(parseRate("5.40")), "5.4");
    assert.equal(formatRate(parseRate("950.000")), "950");
  });

  test("round trip parseRate(formatRate(n)) === n", () => {
    for (const n of [1n, 7n, 10n ** 10n, 54_000_000_000n, 12_345_678_901_234n, 10n ** 10n + 1n]) assert.equal(parseRate(formatRate(n)), n);
  });

  test("rejects what is not a positive decimal with at most 10 decimals", () => {
    for (const bad of ["", " ", "abc", "-1", "-5.4", "+5.4", "5,40", "1e3", "5.", ".5", "1.12345678901", "NaN", "Infinity", "5.4.1", "0x10"]) {
      assert.throws(() => parseRate(bad), /rate/, JSON.stringify(bad));
    }
  });

  test("a zero rate is refused", () => {
    assert.throws(() => parseRate("0"), /zero/);
    assert.throws(() => parseRate("0.0000000000"), /zero/);
  });
});

describe("usdToLocal / localToUsd", () => {
  test("USD -> BRL at 5.40", () => {
    assert.equal(usdToLocal(10_000n, "5.40", "BRL"), 54_000n); // 100.00 USD -> 540.00 BRL
    assert.equal(usdToLocal(1n, "5.40", "BRL"), 5n); // 0.054 BRL -> 0.05
    assert.equal(localToUsd(54_000n, "5.40", "BRL"), 10_000n);
  });

  test("USD -> CLP shifts the exponent (2 -> 0)", () => {
    assert.equal(usdToLocal(10_000n, "950", "CLP"), 95_000n); // 100.00 USD -> 95,000 CLP
    assert.equal(usdToLocal(123n, "950", "CLP"), 1169n); // 1.23 × 950 = 1168.5 -> 1169
    assert.equal(localToUsd(95_000n, "950", "CLP"), 10_000n);
    assert.equal(localToUsd(1n, "950", "CLP"), 0n); // 0.00105 USD
    assert.equal(localToUsd(10n, "950", "CLP"), 1n); // 0.0105 USD -> 0.01
  });

  test("USD -> USD at 1 is the identity", () => {
    for (const m of [0n, 1n, 99n, 123_456n]) {
      assert.equal(usdToLocal(m, "1", "USD"), m);
      assert.equal(localToUsd(m, "1", "USD"), m);
    }
  });

  test("rounding is half-up at the minor unit", () => {
    assert.equal(usdToLocal(1n, "950", "CLP"), 10n); // 9.5 -> 10
    assert.equal(usdToLocal(1n, "18.25", "MXN"), 18n); // 0.1825 MXN -> 0.18
    assert.equal(usdToLocal(2n, "18.25", "MXN"), 37n); // 0.365 -> 0.37
    assert.equal(localToUsd(3n, "5.40", "BRL"), 1n); // 0.5555… -> 0.01
    assert.equal(localToUsd(2n, "5.40", "BRL"), 0n); // 0.37… -> 0.00
    assert.equal(localToUsd(27n, "5.40", "BRL"), 5n); // exactly 0.05
    assert.equal(usdToLocal(1n, "0.5", "EUR"), 1n); // 0.005 EUR -> 0.01 (half up)
    assert.equal(usdToLocal(3n, "0.5", "EUR"), 2n); // 0.015 -> 0.02
  });

  test("a bad rate throws rather than guessing", () => {
    assert.throws(() => usdToLocal(100n, "abc", "BRL"));
    assert.throws(() => localToUsd(100n, "0", "BRL"));
  });
});

describe("presentmentToUsd", () => {
  test("BRL 540.00 at 5.40 with a 200 bp markup -> 98.00 USD", () => {
    assert.equal(presentmentToUsd(54_000n, "5.40", "BRL", 200n), 9_800n);
  });

  test("no markup is a plain conversion", () => {
    assert.equal(presentmentToUsd(54_000n, "5.40", "BRL", 0n), 10_000n);
    assert.equal(presentmentToUsd(95_000n, "950", "CLP", 0n), 10_000n);
  });

  test("CLP input (0 decimals) shifts the exponent", () => {
    assert.equal(presentmentToUsd(95_000n, "950", "CLP", 200n), 9_800n);
    assert.equal(presentmentToUsd(1000n, "950", "CLP", 200n), 103n); // 1.0526 × 0.98 = 1.0315… -> 1.03
  });

  test("rounds half-up", () => {
    // 1.00 BRL / 5 × 0.98 = 0.196 -> 0.20
    assert.equal(presentmentToUsd(100n, "5", "BRL", 200n), 20n);
    // 25.00 EUR / 1 × 0.98 = 24.50 exactly; 0.25 EUR × 0.98 = 0.245 -> 0.25
    assert.equal(presentmentToUsd(2500n, "1", "EUR", 200n), 2450n);
    assert.equal(presentmentToUsd(25n, "1", "EUR", 200n), 25n);
  });
});
