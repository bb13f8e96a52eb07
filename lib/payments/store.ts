// The payment INSERT, on the lean `sql` path (every POST /payments runs it; see lib/platform/db.ts) and
// batched with the other requests' inserts of the same moment (lib/payments/insert-batch.ts), or
// inside a Prisma transaction when other rows must commit with it.
import { batchedBind, boundInsert, claimingInsert, claimingWrite, sqlBound } from "@/lib/platform/idempotency/batched-bind";
import { sql, type Tx } from "@/lib/platform/db";
import { batchStatement, insertBatched, jsonValue, rowJson, type BatchColumn } from "@/lib/payments/insert-batch";
import type { PresentableTransaction } from "@/lib/payments/present";
import { searchKeys } from "@/lib/payments/search";
import { firstCheckAt } from "@/lib/payments/check-schedule";

type Keys = ReturnType<typeof searchKeys>;
const COLUMNS: Array<[column: string, value: (t: PresentableTransaction, rate: string, k: Keys) => unknown, cast?: string]> = [
  ["id", (t) => t.id],
  ["merchant_id", (t) => t.merchantId],
  ["shop_id", (t) => t.shopId],
  ["environment", (t) => t.environment, '"Environment"'],
  ["status", (t) => t.status, '"TransactionStatus"'],
  ["amount_usd", (t) => t.amountUsd, "bigint"],
  ["amount_local", (t) => t.amountLocal, "bigint"],
  ["currency_local", (t) => t.currencyLocal],
  ["fx_rate", (_t, rate) => rate, "numeric"],
  ["input_currency", (t) => t.inputCurrency],
  ["input_amount", (t) => t.inputAmount, "bigint"],
  ["payment_method_id", (t) => t.paymentMethodId],
  ["method", (t) => t.method],
  ["rail_name", (t) => t.railName],
  ["country", (t) => t.country],
  ["fee_platform", (t) => t.feePlatform, "bigint"],
  ["fee_provider", (t) => t.feeProvider, "bigint"],
  ["fee_network", (t) => t.feeNetwork, "bigint"],
  ["reserve_amount", (t) => t.reserveAmount, "bigint"],
  ["settlement_delay", (t) => t.settlementDelay],
  ["provider", (t) => t.provider],
  ["provider_ref", (t) => t.providerRef],
  ["attempts", (t) => JSON.stringify(t.attempts), "jsonb"],
  ["payment_form_url", (t) => t.paymentFormUrl],
  ["instructions", (t) => (t.instructions === null ? null : JSON.stringify(t.instructions)), "jsonb"],
  ["hosted_checkout", (t) => t.hostedCheckout, "boolean"],
  ["return_url", (t) => t.returnUrl],
  ["merchant_order_id", (t) => t.merchantOrderId],
  ["qr_order_id", (t) => t.qrOrderId],
  ["mandate_id", (t) => t.mandateId ?? null],
  ["tag1", (t) => t.tag1],
  ["tag2", (t) => t.tag2],
  ["tag3", (t) => t.tag3],
  ["user_name", (t) => t.userName],
  ["user_email", (t) => t.userEmail],
  ["user_phone", (t) => t.userPhone],
  ["user_ip", (t) => t.userIp],
  ["expires_at", (t) => t.expiresAt, "timestamptz"],
  ["created_at", (t) => t.createdAt, "timestamptz"],
  // Reconciliation's schedule (lib/payments/check-schedule.ts): production rows only.
  ["next_check_at", (t) => (t.environment === "production" && t.status === "pending" ? firstCheckAt(t.createdAt) : null), "timestamptz"],
  ["updated_at", (t) => t.createdAt, "timestamptz"],
  // The installment plan chosen (lib/installments/stored.ts) and a shop-paid plan's fee in USD.
  ["installments", (t) => (t.installments ? JSON.stringify(t.installments) : null), "jsonb"],
  ["fee_financing", (t) => t.feeFinancing ?? 0n, "bigint"],
  // The search keys (lib/payments/search.ts): derived here so no caller can forget them.
  ["search_order_key", (_t, _r, k) => k.searchOrderKey, "bytea"],
  ["search_email_key", (_t, _r, k) => k.searchEmailKey, "bytea"],
  ["search_name_terms", (_t, _r, k) => k.searchNameTerms, "text[]"],
  ["search_amount", (_t, _r, k) => k.searchAmount, "bigint"],
];

const INSERT = `INSERT INTO transactions (${COLUMNS.map(([c]) => c).join(", ")}) VALUES (${COLUMNS.map(([, , cast], i) => `$${i + 1}${cast ? `::${cast}` : ""}`).join(", ")})`;
// The same insert that also completes the request's idempotency record (one statement).
const INSERT_BOUND = boundInsert(INSERT.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), COLUMNS.length);
// The same again claiming the request's key in the statement (POST /payments folds its claim).
const INSERT_CLAIMING = claimingInsert(INSERT.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), COLUMNS.length);
if (!INSERT_BOUND.includes("(SELECT $1 FROM bound)")) throw new Error("the payment insert no longer starts with its id");
// Many requests' inserts in one statement (lib/payments/insert-batch.ts): the rows as one JSON
// array, a jsonb column's value (already JSON text) embedded as it is.
const BATCH_COLUMNS: BatchColumn[] = COLUMNS.map(([name, , cast]) => ({ name, type: cast ?? "text", json: cast === "jsonb" ? (v) => (v === null ? "null" : (v as string)) : jsonValue }));
const INSERT_BATCH = batchStatement("transactions", BATCH_COLUMNS);

/**
 * `answer`: the body the request will answer with, when the insert is its last write (stored with
 * a folded idempotency claim in the same statement, lib/platform/idempotency/batched-bind.ts).
 */
export async function insertTransaction(t: PresentableTransaction, fxRate: string, tx?: Tx, answer?: unknown): Promise<void> {
  const keys = searchKeys(t);
  const values = COLUMNS.map(([, value]) => value(t, fxRate, keys));
  if (tx) return void (await tx.$executeRawUnsafe(INSERT, ...values.map((v) => (typeof v === "bigint" ? v.toString() : v))));
  const ref = { resource: "payment", id: t.id };
  const bind = batchedBind(ref, answer);
  // A key claimed before the use case ran (a retry taking over a held key) binds alone.
  if (bind.kind === "claimed") return sqlBound(INSERT_BOUND, INSERT, values, ref, INSERT_CLAIMING, answer);
  const alone = bind.kind === "claim" ? () => claimingWrite(INSERT_CLAIMING, values, bind) : async () => void (await sql(INSERT, values));
  return insertBatched(INSERT_BATCH, t.id, rowJson(BATCH_COLUMNS, values, bind), bind, alone);
}
