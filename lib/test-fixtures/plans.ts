// Reading EXPLAIN (FORMAT JSON) plans in tests.
import assert from "node:assert/strict";

/** A plan (as JSON text) sorts rows: a Sort node, or an Incremental Sort of an index's ties. */
const SORT_NODE = /"Node Type":"(Incremental )?Sort"/;

export function assertNoSort(plan: string, message: string): void {
  assert.doesNotMatch(plan, SORT_NODE, message);
}
