import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { clampPage, envelope } from "@/lib/platform/paging/pagination";

describe("clampPage", () => {
  test("no input gives the defaults (limit 50, offset 0)", () => {
    assert.deepEqual(clampPage({}), { limit: 50, offset: 0 });
  });

  test("reads numeric strings as query parameters arrive", () => {
    assert.deepEqual(clampPage({ limit: "20", offset: "40" }), { limit: 20, offset: 40 });
  });

  test("limit below 1 is raised to 1", () => {
    assert.equal(clampPage({ limit: "0" }).limit, 1);
    assert.equal(clampPage({ limit: 0 }).limit, 1);
    assert.equal(clampPage({ limit: "-5" }).limit, 1);
  });

  test("limit above the max is lowered to the max (default max 100)", () => {
    assert.equal(clampPage({ limit: "1000" }).limit, 100);
    assert.equal(clampPage({ limit: 101 }).limit, 100);
    assert.equal(clampPage({ limit: "100" }).limit, 100);
  });

  test("unreadable limit falls back to the default", () => {
    for (const limit of ["abc", "", "   ", "12abc", null, true, ["10"], {}, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(clampPage({ limit }).limit, 50, `limit ${JSON.stringify(limit)}`);
    }
  });

  test("negative offset becomes 0; unreadable offset becomes 0", () => {
    assert.equal(clampPage({ offset: "-1" }).offset, 0);
    assert.equal(clampPage({ offset: -100 }).offset, 0);
    assert.equal(clampPage({ offset: "abc" }).offset, 0);
  });

  test("floats are truncated toward zero", () => {
    assert.deepEqual(clampPage({ limit: "10.9", offset: "7.9" }), { limit: 10, offset: 7 });
    assert.deepEqual(clampPage({ limit: 1.5, offset: 0.99 }), { limit: 1, offset: 0 });
    // 0.5 truncates to 0, then is raised to the minimum of 1.
    assert.equal(clampPage({ limit: "0.5" }).limit, 1);
  });

  test("a huge offset stays a safe integer", () => {
    const { offset } = clampPage({ offset: "1e30" });
    assert.equal(offset, Number.MAX_SAFE_INTEGER);
    assert.ok(Number.isSafeInteger(offset));
  });

  test("custom max and default are honoured", () => {
    assert.equal(clampPage({ limit: "1000" }, { max: 200 }).limit, 200);
    assert.equal(clampPage({ limit: "150" }, { max: 200 }).limit, 150);
    assert.equal(clampPage({}, { max: 200, def: 25 }).limit, 25);
    assert.equal(clampPage({ limit: "abc" }, { def: 10 }).limit, 10);
    assert.equal(clampPage({ limit: "99" }, { max: 20 }).limit, 20);
  });
});

describe("envelope", () => {
  test("wraps data and computes pages = ceil(total / limit)", () => {
    const rows = [{ id: 1 }, { id: 2 }];
    assert.deepEqual(envelope(rows, 101, { limit: 50, offset: 100 }), {
      data: rows,
      pagination: { total: 101, limit: 50, offset: 100, pages: 3 },
    });
  });

  test("exact multiples do not add a page", () => {
    assert.equal(envelope([], 100, { limit: 50, offset: 0 }).pagination.pages, 2);
    assert.equal(envelope([], 1, { limit: 1, offset: 0 }).pagination.pages, 1);
  });

  test("zero total gives zero pages", () => {
    assert.deepEqual(envelope([], 0, { limit: 50, offset: 0 }).pagination, { total: 0, limit: 50, offset: 0, pages: 0 });
  });
});
