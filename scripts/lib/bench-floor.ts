// The floor under POST /payments (issue 44, point 4): a bare node:http server on loopback that,
// per POST, reads the JSON body and commits the same two rows a payment commits, its
// Idempotency-Key's record and its payment row, in one autocommitted statement, then answers
// with the stored answer. The rows are copies of a real payment's two rows (every column, the
// same values but the ids, the key, the order id and the times), so the database does what it
// does for a payment: the same table, indexes, rollup trigger and row sizes. No authentication,
// no rate limit, no validation, no pricing, no log, no batching: what a payment would cost if
// the service were nothing but its two rows. Run in its own process, like the app.
//   startFloor(databaseUrl, transactionId) -> { url, stop }
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import http from "node:http";
import pg from "pg";
import { freePort } from "./embedded-db.ts";
import { waitForHttp } from "./server.ts";
import { parseDatabaseUrl } from "./postgres.ts";

// Both rows from JSON objects of every column: one statement, one commit.
const INSERT = `WITH rec AS (INSERT INTO idempotency_records SELECT * FROM json_populate_record(NULL::idempotency_records, $1::json))
  INSERT INTO transactions SELECT * FROM json_populate_record(NULL::transactions, $2::json)`;

/** Pool size: the app's default (DATABASE_POOL_SIZE), so both hold as many PostgreSQL backends. */
const POOL = Number(process.env.FLOOR_POOL ?? 10);

/** The floor's connections' application_name. */
export const FLOOR_APPLICATION = "lp-bench-floor";

type Template = { record: Record<string, unknown>; payment: Record<string, unknown> };

/** Starts the floor in its own process, its rows copied from the payment `transactionId` and its record. */
export async function startFloor(databaseUrl: string, transactionId: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const db = new pg.Client(parseDatabaseUrl(databaseUrl));
  await db.connect();
  let template: Template;
  try {
    const [payment] = (await db.query(`SELECT row_to_json(t) AS j FROM transactions t WHERE id = $1`, [transactionId])).rows;
    const [record] = (await db.query(`SELECT row_to_json(r) AS j FROM idempotency_records r WHERE resource_id = $1`, [transactionId])).rows;
    if (!payment || !record) throw new Error(`the floor's template: no payment ${transactionId} with an idempotency record`);
    template = { record: record.j, payment: payment.j };
  } finally {
    await db.end();
  }
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, FLOOR_PORT: String(port), FLOOR_DATABASE_URL: databaseUrl, FLOOR_TEMPLATE: JSON.stringify(template) },
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(`${url}ready`);
  return { url, pid: child.pid!, stop: () => child.kill() };
}

function serve(): void {
  const template = JSON.parse(process.env.FLOOR_TEMPLATE!) as Template;
  // Named, so the bench counts these backends' CPU as the floor's and no one else's (scripts/lib/bench-cpu.ts).
  const pool = new pg.Pool({ ...parseDatabaseUrl(process.env.FLOOR_DATABASE_URL!), max: POOL, application_name: FLOOR_APPLICATION });
  let n = 0;
  const answer = String(template.record.response_body ?? "{}");
  http
    .createServer((req, res) => {
      if (req.method !== "POST") return void res.writeHead(200).end("ok");
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { merchantOrderId?: string };
        const id = `tx_F${process.pid}_${++n}`;
        const now = new Date();
        const key = String(req.headers["idempotency-key"] ?? id);
        const record = { ...template.record, id: `idr_F${process.pid}_${n}`, idempotency_key: key, resource_id: id, created_at: now, updated_at: now };
        const payment = { ...template.payment, id, merchant_order_id: body.merchantOrderId ?? null, created_at: now, updated_at: now };
        // A named statement, parsed and planned once per connection, as the app's are.
        pool.query({ name: "floor_insert", text: INSERT, values: [JSON.stringify(record), JSON.stringify(payment)] }).then(
          () => res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }).end(answer),
          (err: Error) => res.writeHead(500).end(err.message),
        );
      });
    })
    .listen(Number(process.env.FLOOR_PORT), "127.0.0.1");
}

if (process.env.FLOOR_TEMPLATE && process.argv[1] === fileURLToPath(import.meta.url)) serve();
