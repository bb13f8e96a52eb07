import { test } from "node:test";
import assert from "node:assert/strict";
import { rememberBounded } from "./bounded.ts";

test("past the bound the oldest entries go, one at a time; a separate map is untouched", () => {
  const known = new Map<string, number>();
  const unknown = new Map<string, number>();
  rememberBounded(known, "real-key", 1, 10);
  for (let i = 0; i < 10_000; i++) rememberBounded(unknown, `guess-${i}`, i, 100);
  assert.equal(unknown.size, 100);
  assert.ok(unknown.has("guess-9999") && !unknown.has("guess-9899"));
  assert.equal(known.get("real-key"), 1, "a flood of unknown keys cannot evict a real one");
});

test("re-remembering a key refreshes its position", () => {
  const m = new Map<string, number>();
  for (const k of ["a", "b", "c"]) rememberBounded(m, k, 0, 3);
  rememberBounded(m, "a", 1, 3);
  rememberBounded(m, "d", 0, 3);
  assert.deepEqual([...m.keys()], ["c", "a", "d"]);
});
