// Group commit for the payment insert (issue 23: POST /payments). Every POST /payments ends in
// one INSERT of its row, with its Idempotency-Key's record claimed in the same statement. Sent
// one by one, each insert is a socket write, a wake-up of a PostgreSQL backend, a statement, a
// commit with its WAL flush and an answer to read back; under load those writes were a quarter of
// the server's CPU. Here the inserts share a lane (lib/platform/statement-lane.ts): while IN_FLIGHT
// statements are running, the inserts that arrive wait and go together in the next one: one
// statement, one commit for up to MAX_ROWS payments, each with its own claim. An idle server
// sends each insert at once, alone, as before.
//
// What each request sees is what its own insert would have given it:
// - the statement is one transaction, so the rows commit together or not at all;
// - a request whose key is held (a duplicate, another body, a claim not yet expired) inserts
//   nothing and gets its own ClaimTaken (lib/platform/idempotency/current.ts), its neighbours unaffected;
// - any other failure of a batch (a constraint, a deadlock between two batches claiming the same
//   keys in the same instant) re-runs each of its rows alone, so each request gets its own answer
//   or error; a lost database fails them all, as it would have failed each;
// - two requests with the same key never share a statement (ON CONFLICT cannot touch a row
//   twice): the second waits for the next one, and finds the key held, as it would have.
import { sql } from "@/lib/platform/db";
import { claimBoundMany, CLAIM_RECORD_COLUMNS } from "@/lib/platform/idempotency/statements";
import { type BatchedBind, type ClaimBind } from "@/lib/platform/idempotency/batched-bind";
import { singleton } from "@/lib/platform/singleton";
import { newLaneStats, runGroup, StatementLane } from "@/lib/platform/statement-lane";

/** Statements in flight at once: enough to keep both PostgreSQL cores busy while one commits. */
const IN_FLIGHT = 2;
/**
 * Rows that must be waiting before a second statement goes while one is out. A second statement
 * for whatever had arrived split the rows of a moment in two, and often sent one row alone: on
 * the bench (50 connections, 2 cores, load 8) a statement carried 3-5 rows (0.22-0.32 commits a
 * payment) and a payment cost 343-365 µs of server and 189-204 µs of PostgreSQL CPU; with this,
 * 8-11 rows (0.09-0.12), 296-355 µs and 171-195 µs (docs/contributors/benchmarks.md). A second
 * still goes for a group this big, so a statement that stalls (a checkpoint's flush) does not
 * hold every payment behind it.
 */
const SECOND_AT = 16;
/** Rows in one statement: about 3 KB each (the row and its stored answer). */
const MAX_ROWS = 64;

export type BatchColumn = { name: string; type: string; json: (value: unknown) => string };

type Entry = {
  /** The row as a JSON object (its columns, then its record's `c_` columns). */
  row: string;
  bind: { kind: "none" } | ClaimBind;
  id: string;
  /** The same insert alone, settling its claim (a batch of one, or the fallback of a failed batch); reads no async context. */
  alone: () => Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
};

/** One lane per batched statement text (the payment insert is the one today). */
const lanes = singleton("payment-insert-batch", () => ({ byStatement: new Map<string, StatementLane<Entry>>(), stats: newLaneStats() }));

/** Statements sent, rows they carried, the largest batch (tests and the bench read them). */
export function insertBatchStats(): { statements: number; rows: number; largest: number } {
  return { statements: lanes.stats.statements, rows: lanes.stats.members, largest: lanes.stats.largest };
}

/** JSON of a value for jsonb_to_recordset: BigInts as numbers, Dates as ISO text, bytes as bytea's hex text. */
export function jsonValue(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "bigint") return v.toString();
  if (Buffer.isBuffer(v)) return `"\\\\x${v.toString("hex")}"`;
  return JSON.stringify(v);
}

const RECORD_COLUMNS = CLAIM_RECORD_COLUMNS.map((c) => `c_${c}`);
const RECORD_TYPES: Record<(typeof CLAIM_RECORD_COLUMNS)[number], string> = {
  id: "text", merchant_id: "text", environment: "text", idempotency_key: "text", method: "text", path: "text", request_hash: "text",
  locked_until: "timestamptz", expires_at: "timestamptz", shop_id: "text", resource_type: "text", resource_id: "text", response_status: "int", response_body: "text",
};
const NO_RECORD = RECORD_COLUMNS.map((c) => `,"${c}":null`).join("");

/** The batched twin of a table's claiming insert: `$1` is the JSON array of the rows. */
export function batchStatement(table: string, columns: BatchColumn[]): string {
  const defs = [...columns.map((c) => `${c.name} ${c.type}`), ...CLAIM_RECORD_COLUMNS.map((c) => `c_${c} ${RECORD_TYPES[c]}`)].join(", ");
  const names = columns.map((c) => c.name).join(", ");
  return `WITH r AS MATERIALIZED (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${defs})),
  bound AS (${claimBoundMany("r")})
  INSERT INTO ${table} (${names}) SELECT ${names} FROM r WHERE r.c_id IS NULL OR r.id IN (SELECT resource_id FROM bound) RETURNING id`;
}

/** One row's JSON object: its columns' values, then its record's (nulls without a key). */
export function rowJson(columns: BatchColumn[], values: unknown[], bind: BatchedBind): string {
  let out = "{";
  for (let i = 0; i < columns.length; i++) out += `${i ? "," : ""}"${columns[i]!.name}":${columns[i]!.json(values[i])}`;
  if (bind.kind === "claim") for (let i = 0; i < RECORD_COLUMNS.length; i++) out += `,"${RECORD_COLUMNS[i]}":${jsonValue(bind.record[i])}`;
  else out += NO_RECORD;
  return `${out}}`;
}

/** Queues one row of `statement` (batchStatement); resolves once it committed, or rejects with its own error. */
export function insertBatched(statement: string, id: string, row: string, bind: Entry["bind"], alone: () => Promise<void>): Promise<void> {
  let lane = lanes.byStatement.get(statement);
  if (!lane) lanes.byStatement.set(statement, (lane = new StatementLane<Entry>({ inFlight: IN_FLIGHT, sendMore: (waiting) => waiting >= SECOND_AT, take, send: (batch) => send(statement, batch) }, lanes.stats)));
  const l = lane;
  return new Promise<void>((resolve, reject) => l.add({ row, bind, id, alone, resolve, reject }));
}

/** The next statement's rows: oldest first, at most MAX_ROWS, no two with one key's scope. */
function take(waiting: Entry[]): { group: Entry[]; rest: Entry[] } {
  const group: Entry[] = [];
  const keys = new Set<string>();
  const rest: Entry[] = [];
  for (const e of waiting) {
    if (group.length >= MAX_ROWS) rest.push(e);
    else if (e.bind.kind === "claim" && keys.has(e.bind.conflictKey)) rest.push(e);
    else {
      if (e.bind.kind === "claim") keys.add(e.bind.conflictKey);
      group.push(e);
    }
  }
  return { group, rest };
}

function send(statement: string, batch: Entry[]): Promise<void> {
  // Records claimed in one order by every batch: two batches holding the same keys wait, not deadlock.
  if (batch.length > 1) batch.sort((a, b) => ((a.bind.kind === "claim" ? a.bind.conflictKey : "") < (b.bind.kind === "claim" ? b.bind.conflictKey : "") ? -1 : 1));
  return runGroup(batch, {
    together: async () => new Set((await sql<{ id: string }>(statement, [`[${batch.map((e) => e.row).join(",")}]`])).map((r) => r.id)),
    deliver: (inserted) => {
      for (const e of batch) {
        try {
          if (e.bind.kind === "claim") e.bind.settle(inserted.has(e.id));
          else if (!inserted.has(e.id)) throw new Error(`the batched payment insert did not insert ${e.id}`);
          e.resolve();
        } catch (err) {
          e.reject(err);
        }
      }
    },
    alone: (e) => e.alone().then(e.resolve, e.reject),
  });
}
