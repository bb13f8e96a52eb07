// Shared set-up of the idempotency bind tests (lib/platform/idempotency/idempotency-bind*.test.ts;
// not a test file itself): the files' merchant, a fresh scope, its record, a cheap row that stands
// for what a use case creates, and the folded claim's statements and use case.
import { randomUUID } from "node:crypto";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { boundInsert, claimingInsert, sqlBound } from "@/lib/platform/idempotency/batched-bind";
import type { IdempotencyScope } from "@/lib/platform/idempotency/keys";
import { createMerchant } from "@/lib/merchants/create-merchant";

/** The test files' merchant, set by newBindMerchant (each file's before()). */
export let merchantId = "";
export async function newBindMerchant() {
  merchantId = (await createMerchant({ name: "Idempotency bind" })).merchantId;
}

export const scope = (): IdempotencyScope => ({ merchantId, environment: "sandbox", key: randomUUID(), method: "POST", path: "/test/bind" });
export const record = async (s: IdempotencyScope) =>
  (await db().idempotencyRecord.findUnique({ where: { merchantId_environment_shopId_idempotencyKey_method_path: { merchantId: s.merchantId, environment: s.environment, shopId: s.shopId ?? "", idempotencyKey: s.key, method: s.method, path: s.path } } }));
/** A row that stands for "what the use case created": a webhook subscription is a cheap one. */
export const createThing = (tx: Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0], id = newId("webhook")) =>
  tx.webhookSubscription.create({ data: { id, merchantId, environment: "sandbox", url: "https://example.com/h", managed: false, events: ["*"], secretEncrypted: "x" } });
export const things = (id: string) => db().webhookSubscription.count({ where: { id } });
// The claim folded into the use case's first write (foldClaim: POST /payments).
export const foldedPlain = `INSERT INTO webhook_subscriptions (id, merchant_id, environment, url, managed, events, secret_encrypted, created_at, updated_at)
    VALUES ($1, $2, 'sandbox', 'https://example.com/h', false, ARRAY['*'], 'x', now(), now())`;
export const foldedBound = boundInsert(foldedPlain.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), 2);
export const foldedClaiming = claimingInsert(foldedPlain.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), 2);
/** A folded use case: reads nothing, writes one row with the claim; counts how often it ran. */
export function foldedUseCase(id: string, runs: { n: number; writes: number }, delayMs = 0) {
  return async () => {
    runs.n++;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await sqlBound(foldedBound, foldedPlain, [id, merchantId], { resource: "webhook", id }, foldedClaiming);
    runs.writes++;
    return { status: 201, body: { id } };
  };
}
