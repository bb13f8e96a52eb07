// Concurrent runs of one hot read share a round trip (issue 23: GET /payments). Each statement
// sent alone costs the server a socket write that also runs PostgreSQL's side of the loopback
// and wakes a backend, a Bind/Execute/Sync, a snapshot, and a result to parse: about a fifth of a
// list request's CPU. Each statement text has a lane (lib/platform/statement-lane.ts): while IN_FLIGHT
// runs of it are out, the runs that arrive wait, and go together as one statement: each run a
// branch of a UNION ALL (its statement as a subquery), its placeholders renumbered, its rows
// tagged with the branch's number. An idle server sends each run at once, alone, as `sql` does.
//
// Each caller gets exactly its own statement's rows, in its own order: a branch runs whole in one
// process (a LIMIT query is never split), and its rows are taken back by their tag in the order
// they came. A failed shared statement runs each of its branches alone, so each caller gets its
// own rows or its own error; a lost database fails them all, as it would have failed each.
// For a read only (SELECT … [ORDER BY …] [LIMIT …]): a write must not be repeated by a retry alone.
// Each text runs on one generic plan (`sql`'s `genericPlan`) by default: the statements shared are
// mostly pages of one owner's rows, whose plan must not depend on what the statistics know of that
// owner. A lookup by primary key passes `genericPlan: false` and stays on the main pool (the
// generic pool's three connections are the lists').
import { sql } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { newLaneStats, runGroup, StatementLane } from "@/lib/platform/statement-lane";
import { rememberBounded } from "@/lib/platform/bounded";

/** Shared statements of one text in flight at once. */
const IN_FLIGHT = 2;
/** Runs in one statement: a page statement's branch is planned on its own, so more only lengthens the text. */
const MAX_BRANCHES = 16;
const TAG = "shared_read_branch";

type Waiter = { values: unknown[]; resolve: (rows: never[]) => void; reject: (err: unknown) => void };
const state = singleton("shared-reads", () => ({ lanes: new Map<string, StatementLane<Waiter>>(), texts: new Map<string, string>(), stats: newLaneStats() }));

/** Statements sent and the runs they carried (tests read them). */
export function sharedReadStats(): { statements: number; runs: number } {
  return { statements: state.stats.statements, runs: state.stats.members };
}

/**
 * `sql(text, values)` for a read whose text many requests run at once (`text` is a SELECT whose
 * placeholders are $1..$values.length and whose output has no column named shared_read_branch).
 */
export function sqlShared<R extends Record<string, unknown>>(text: string, values: unknown[], opts: { genericPlan?: boolean } = {}): Promise<R[]> {
  let lane = state.lanes.get(text);
  if (!lane) {
    // A lane lives while its text has runs out or waiting: texts come and go with their callers.
    const take = (waiting: Waiter[]) => ({ group: waiting.slice(0, MAX_BRANCHES), rest: waiting.slice(MAX_BRANCHES) });
    const generic = opts.genericPlan ?? true;
    state.lanes.set(text, (lane = new StatementLane<Waiter>({ inFlight: IN_FLIGHT, take, send: (group) => run(text, group, generic), onIdle: () => state.lanes.delete(text) }, state.stats)));
  }
  const l = lane;
  return new Promise<R[]>((resolve, reject) => l.add({ values, resolve: resolve as (rows: never[]) => void, reject }));
}

/** The text of `n` runs of `text` as one statement (kept per text and count: a few per statement). */
export function sharedText(text: string, params: number, n: number): string {
  const key = `${n}\u0000${params}\u0000${text}`;
  let shared = state.texts.get(key);
  if (shared === undefined) {
    const body = text.trim();
    if (!/^SELECT\s/i.test(body)) throw new Error("sqlShared takes a SELECT");
    const branches: string[] = [];
    for (let i = 0; i < n; i++) {
      const renumbered = body.replace(/\$(\d+)/g, (_, d: string) => `$${Number(d) + i * params}`);
      // The tag last: deleting an object's newest property keeps V8's fast shape for the row.
      branches.push(`(SELECT b.*, ${i} AS ${TAG} FROM (${renumbered}) b)`);
    }
    shared = branches.join("\nUNION ALL\n");
    rememberBounded(state.texts, key, shared, 2_000);
  }
  return shared;
}

function run(text: string, group: Waiter[], genericPlan: boolean): Promise<void> {
  const params = group[0]!.values.length;
  // Runs of one text with different counts of values cannot share a numbering: each goes alone.
  if (group.length > 1 && group.some((w) => w.values.length !== params)) return Promise.all(group.map(alone)).then(() => undefined);
  return runGroup(group, {
    together: () => sql<Record<string, unknown>>(sharedText(text, params, group.length), group.flatMap((w) => w.values), { genericPlan }),
    deliver: (rows) => {
      const out: Array<Array<Record<string, unknown>>> = group.map(() => []);
      for (const row of rows) {
        const i = row[TAG] as number;
        delete row[TAG];
        out[i]!.push(row);
      }
      for (let i = 0; i < group.length; i++) group[i]!.resolve(out[i] as never[]);
    },
    alone,
  });

  function alone(w: Waiter): Promise<void> {
    return sql(text, w.values, { genericPlan }).then((rows) => w.resolve(rows as never[]), w.reject);
  }
}
