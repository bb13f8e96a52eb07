import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mulDivHalfUp, percentOf, toMajor, toMinor, toMinorUp } from "@/lib/money/amount";

describe("toMinor", () => {
  test("exact decimals become integer minor units", () => {
    assert.equal(toMinor(100, "USD"), 10_000n);
    assert.equal(toMinor(12.34, "USD"), 1234n);
    assert.equal(toMinor(0.01, "USD"), 1n);
    assert.equal(toMinor(5.4, "BRL"), 540n);
    assert.equal(toMinor(1.1, "MXN"), 110n);
    assert.equal(toMinor(0, "USD"), 0n);
    assert.equal(toMinor(-12.5, "USD"), -1250n);
  });

  test("values that are famous for float trouble still convert exactly", () => {
    assert.equal(toMinor(0.3, "USD"), 30n);
    assert.equal(toMinor(1.15, "USD"), 115n); // 1.15 * 100 === 114.99999999999999 in floats
    assert.equal(toMinor(4.35, "USD"), 435n); // 4.35 * 100 === 434.99999999999994
    assert.equal(toMinor(19.99, "USD"), 1999n);
  });

  test("a float sum that is not really 0.3 is refused, not silently rounded", () => {
    assert.equal(toMinor(0.1 + 0.2, "USD"), null); // 0.30000000000000004
  });

  test("more decimals than the currency allows: null", () => {
    assert.equal(toMinor(1.001, "USD"), null);
    assert.equal(toMinor(0.005, "USD"), null);
    assert.equal(toMinor(10.5, "CLP"), null);
  });

  test("trailing zeros do not count as decimals", () => {
    assert.equal(toMinor(1.1, "USD"), 110n);
    assert.equal(toMinor(1500, "CLP"), 1500n);
  });

  test("CLP has no decimals", () => {
    assert.equal(toMinor(950, "CLP"), 950n);
    assert.equal(toMinor(1, "CLP"), 1n);
    assert.equal(toMinor(0.5, "CLP"), null);
  });

  test("NaN and infinities: null", () => {
    assert.equal(toMinor(Number.NaN, "USD"), null);
    assert.equal(toMinor(Number.POSITIVE_INFINITY, "USD"), null);
    assert.equal(toMinor(Number.NEGATIVE_INFINITY, "USD"), null);
  });

  test("exponent notation: 1e-7 has too many decimals for USD, 1e21 is too large", () => {
    assert.equal(String(1e-7), "1e-7");
    assert.equal(toMinor(1e-7, "USD"), null);
    assert.equal(String(1e21), "1e+21");
    assert.equal(toMinor(1e21, "USD"), null);
    assert.equal(toMinor(1e21, "CLP"), null);
  });

  test("small and large exact values written with exponents convert like their plain forms", () => {
    assert.equal(toMinor(1e-2, "USD"), 1n);
    assert.equal(toMinor(5e-1, "USD"), 50n);
    assert.equal(toMinor(1e13, "USD"), 10n ** 15n);
  });

  test("more than 10^15 minor units: null; exactly 10^15 is accepted", () => {
    assert.equal(toMinor(1e13, "USD"), 10n ** 15n);
    assert.equal(toMinor(10_000_000_000_000.01, "USD"), null);
    assert.equal(toMinor(1e15, "CLP"), 10n ** 15n);
    assert.equal(toMinor(1e15 + 1, "CLP"), null);
    assert.equal(toMinor(1e16, "USD"), null);
  });

  test("unknown currency throws (a programming error, not user input)", () => {
    assert.throws(() => toMinor(1, "XYZ"), /unknown currency/);
  });
});

describe("toMajor", () => {
  test("minor units back to a major-unit number", () => {
    assert.equal(toMajor(10_000n, "USD"), 100);
    assert.equal(toMajor(1n, "USD"), 0.01);
    assert.equal(toMajor(5n, "USD"), 0.05);
    assert.equal(toMajor(-1250n, "USD"), -12.5);
    assert.equal(toMajor(0n, "USD"), 0);
    assert.equal(toMajor(950n, "CLP"), 950);
    assert.equal(toMajor(-7n, "CLP"), -7);
  });

  test("round trip toMinor(toMajor(x)) === x for many amounts", () => {
    const samples = [0n, 1n, 9n, 10n, 99n, 100n, 101n, 12_345n, 999_999n, 123_456_789n, 10n ** 15n, -1n, -505n];
    for (const currency of ["USD", "BRL", "CLP", "COP"]) {
      for (const m of samples) assert.equal(toMinor(toMajor(m, currency), currency), m, `${m} ${currency}`);
    }
    for (let m = 0n; m < 2000n; m++) assert.equal(toMinor(toMajor(m, "USD"), "USD"), m);
  });

  test("round trip toMajor(toMinor(x)) === x for decimal inputs", () => {
    for (const x of [0.3, 1.15, 4.35, 19.99, 100, 123456.78, 0.07]) assert.equal(toMajor(toMinor(x, "USD")!, "USD"), x);
  });
});

describe("mulDivHalfUp", () => {
  test("exact quotients are unchanged", () => {
    assert.equal(mulDivHalfUp(10n, 3n, 5n), 6n);
    assert.equal(mulDivHalfUp(0n, 7n, 3n), 0n);
  });

  test("rounds half up, away from zero", () => {
    assert.equal(mulDivHalfUp(5n, 1n, 2n), 3n); // 2.5
    assert.equal(mulDivHalfUp(7n, 1n, 2n), 4n); // 3.5
    assert.equal(mulDivHalfUp(1n, 1n, 3n), 0n); // 0.333
    assert.equal(mulDivHalfUp(2n, 1n, 3n), 1n); // 0.667
    assert.equal(mulDivHalfUp(149n, 1n, 100n), 1n); // 1.49
    assert.equal(mulDivHalfUp(150n, 1n, 100n), 2n); // 1.50
  });

  test("negative values round half away from zero, symmetric to positives", () => {
    assert.equal(mulDivHalfUp(-5n, 1n, 2n), -3n);
    assert.equal(mulDivHalfUp(5n, -1n, 2n), -3n);
    assert.equal(mulDivHalfUp(-5n, -1n, 2n), 3n);
    assert.equal(mulDivHalfUp(-1n, 1n, 3n), 0n);
    assert.equal(mulDivHalfUp(-2n, 1n, 3n), -1n);
    for (let a = -200n; a <= 200n; a++) assert.equal(mulDivHalfUp(-a, 7n, 13n), -mulDivHalfUp(a, 7n, 13n), `a=${a}`);
  });

  test("matches a reference rounding over a range", () => {
    for (let a = 0n; a < 500n; a++) {
      const p = a * 29n;
      const q = p / 100n;
      const r = p % 100n;
      assert.equal(mulDivHalfUp(a, 29n, 100n), r >= 50n ? q + 1n : q, `a=${a}`);
    }
  });

  test("a non-positive denominator throws", () => {
    assert.throws(() => mulDivHalfUp(1n, 1n, 0n));
    assert.throws(() => mulDivHalfUp(1n, 1n, -2n));
  });

  test("big values stay exact", () => {
    assert.equal(mulDivHalfUp(10n ** 15n, 10n ** 10n, 10n ** 10n), 10n ** 15n);
    assert.equal(mulDivHalfUp(10n ** 20n + 1n, 1n, 2n), 5n * 10n ** 19n + 1n);
  });
});

describe("percentOf", () => {
  test("basis points of an amount, half-up", () => {
    assert.equal(percentOf(10_000n, 290n), 290n); // 2.9% of 100.00
    assert.equal(percentOf(10_000n, 10_000n), 10_000n);
    assert.equal(percentOf(10_000n, 0n), 0n);
    assert.equal(percentOf(15n, 1000n), 2n); // 1.5 -> 2
    assert.equal(percentOf(14n, 1000n), 1n); // 1.4 -> 1
    assert.equal(percentOf(9590n, 500n), 480n); // 479.5 -> 480
    assert.equal(percentOf(-15n, 1000n), -2n);
  });
});

describe("toMinorUp (thresholds)", () => {
  test("exact amounts as toMinor; more decimals round up to the next minor unit; negative or not finite: null", () => {
    assert.deepEqual([toMinorUp(500, "USD"), toMinorUp(0, "USD"), toMinorUp(12.34, "USD"), toMinorUp(0.1 + 0.2, "USD")], [50_000n, 0n, 1234n, 31n]);
    assert.deepEqual([toMinorUp(500.005, "USD"), toMinorUp(1000.001, "USD"), toMinorUp(500.0000001, "USD"), toMinorUp(10.5, "CLP")], [50_001n, 100_001n, 50_001n, 11n]);
    assert.deepEqual([toMinorUp(-1, "USD"), toMinorUp(Number.NaN, "USD"), toMinorUp(Infinity, "USD")], [null, null, null]);
  });
});
