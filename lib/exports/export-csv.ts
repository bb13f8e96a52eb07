// GET /exports/{resource}.csv: a date range of the merchant's payments, ledger movements,
// payouts, claims (and settlements) as CSV, streamed: each pull of the response stream reads one
// keyset batch, so memory stays flat however many rows there are and a slow client slows the
// reads instead of filling a buffer. Dates are read and printed in the merchant's time zone
// (`timeZone` overrides it); the CSV is written by csv-stringify (quoting, formula-safe cells).
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { isTimeZone } from "@/lib/platform/time-zone";
import { EXPORTS, type Cursor, type ExportName, type ExportScope } from "@/lib/exports/resources";
import type { Environment } from "@/lib/generated/prisma/enums";

export const EXPORT_BATCH = 2_000;
const MAX_RANGE_DAYS = 366;

type Auth = { merchant: { id: string }; shop: { id: string } | null; environment: Environment };
export type ExportQuery = { from?: string; to?: string; timeZone?: string };

/**
 * Midnight at the start of `day` (YYYY-MM-DD) in `tz`, as an instant: the zone's offset at that
 * moment comes from Intl, checked once more after the shift so days that start on a DST change
 * land right.
 */
export function startOfDay(day: string, tz: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const utcGuess = Date.UTC(y, m - 1, d);
  const offsetAt = (t: number) => {
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(t)).map((p) => [p.type, p.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - t;
  };
  const first = utcGuess - offsetAt(utcGuess);
  return new Date(utcGuess - offsetAt(first));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Today in `tz`, as YYYY-MM-DD. */
const today = (tz: string) => new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

function csvInjectionSafe(cell: string): string {
  // A cell a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection).
  return /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell) ? `'${cell}` : cell;
}

export async function exportCsv(auth: Auth, resource: ExportName, query: ExportQuery): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const merchant = await db().merchant.findUniqueOrThrow({ where: { id: auth.merchant.id }, select: { timeZone: true } });
  const timeZone = query.timeZone ?? merchant.timeZone;
  if (!isTimeZone(timeZone)) throw new AppError("invalid_request", `${timeZone} is not an IANA time zone (e.g. America/Sao_Paulo).`, { param: "timeZone" });
  const checkDay = (param: "from" | "to", v: string) => {
    if (!DAY.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw new AppError("invalid_request", `\`${param}\` must be a date as YYYY-MM-DD.`, { param });
    return v;
  };
  const toDay = checkDay("to", query.to ?? today(timeZone));
  const fromDay = checkDay("from", query.from ?? new Date(Date.parse(`${toDay}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10));
  if (fromDay > toDay) throw new AppError("invalid_request", "`from` must not be after `to`.", { param: "from" });
  if ((Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / 86_400_000 >= MAX_RANGE_DAYS) {
    throw new AppError("invalid_request", `A range covers at most ${MAX_RANGE_DAYS} days; split longer ones.`, { param: "to" });
  }
  const scope: ExportScope = {
    merchantId: auth.merchant.id,
    environment: auth.environment,
    shopId: auth.shop?.id ?? null,
    timeZone,
    from: startOfDay(fromDay, timeZone),
    // `to` is inclusive: up to the start of the next day.
    to: startOfDay(nextDay(toDay), timeZone),
  };
  const def = EXPORTS[resource];
  const encoder = new TextEncoder();
  let cursor: Cursor = null;
  let done = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(stringify([def.header])));
      },
      async pull(controller) {
        if (done) return;
        try {
          const { rows, last } = await def.batch(scope, cursor, EXPORT_BATCH);
          if (rows.length) controller.enqueue(encoder.encode(stringify(rows.map((r) => r.map(csvInjectionSafe)))));
          if (rows.length < EXPORT_BATCH || !last) {
            done = true;
            controller.close();
          } else cursor = last;
        } catch (err) {
          // Headers are gone already: the client sees a cut-off download, never a half file that looks whole.
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );
  return { filename: `${resource}-${auth.environment}-${fromDay}-to-${toDay}.csv`, stream };
}
