// The record bound in the protected change's own transaction (lib/platform/idempotency/bind.ts), against
// the test database: what a crash at each point leaves, what a retry then does, the one-statement
// bind of the hot path, and the same mechanism behind dashboard forms (lib/dashboard/once.ts). The
// crash itself (SIGKILL of a server) is e2e/api/crash-recovery.test.ts; here a "crash" is a record
// left as a dead process leaves it. The claim folded into the first write is
// idempotency-bind-folded.test.ts.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { db, sql } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { bindIdempotency, inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { boundInsert, sqlBound } from "@/lib/platform/idempotency/batched-bind";
import { canonicalJson } from "@/lib/platform/idempotency/keys";
import { idempotencyActive } from "@/lib/platform/idempotency/current";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { onceForForm } from "@/lib/dashboard/once";
import { merchantId, newBindMerchant, scope, record, createThing, things } from "@/lib/test-fixtures/idempotency-bind";

before(newBindMerchant);
after(() => db().$disconnect());

test("the bind commits with the change: the record is completed with its resource and answer", async () => {
  const s = scope();
  const id = newId("webhook");
  const r = await withIdempotency(s, { a: 1 }, async () => {
    assert.ok(idempotencyActive());
    await db().$transaction(async (tx) => {
      await createThing(tx, id);
      await bindIdempotency(tx, { resource: "webhook", id });
    });
    return { status: 201, body: { id } };
  });
  assert.deepEqual([r.status, r.replayed], [201, false]);
  const rec = await record(s);
  assert.deepEqual([rec?.state, rec?.resourceType, rec?.resourceId, rec?.responseStatus], ["completed", "webhook", id, 201]);
  assert.equal(idempotencyActive(), false, "the context ends with the request");
});

test("a transaction that rolls back after binding leaves the key free (nothing committed)", async () => {
  const s = scope();
  const id = newId("webhook");
  await assert.rejects(
    withIdempotency(s, {}, async () => {
      await db().$transaction(async (tx) => {
        await createThing(tx, id);
        await bindIdempotency(tx, { resource: "webhook", id });
        throw new AppError("balance_insufficient", "refused inside the transaction");
      });
      return { status: 200, body: {} };
    }, { renderError: (e) => (e instanceof AppError ? { status: e.status, body: { code: e.code } } : null) }),
    (e: unknown) => e instanceof AppError && e.code === "balance_insufficient",
  );
  assert.equal(await record(s), null);
  assert.equal(await things(id), 0);
});

test("an error after the bind committed is stored and replayed; the use case does not run again", async () => {
  const s = scope();
  const id = newId("webhook");
  let runs = 0;
  const run = async () => {
    runs++;
    await db().$transaction(async (tx) => {
      await createThing(tx, id);
      await bindIdempotency(tx, { resource: "webhook", id });
    });
    throw new AppError("payout_dispatch_failed", "the provider refused after our row committed");
  };
  const renderError = (e: unknown) => (e instanceof AppError ? { status: e.status, body: { error: { code: e.code } } } : null);
  await assert.rejects(withIdempotency(s, {}, run, { renderError }), (e: unknown) => e instanceof AppError && e.code === "payout_dispatch_failed");
  const again = await withIdempotency(s, {}, run, { renderError });
  assert.deepEqual([again.status, again.body, again.replayed], [422, { error: { code: "payout_dispatch_failed" } }, true]);
  assert.equal(runs, 1);
  assert.equal(await things(id), 1);
});

test("crash after commit, before the answer was stored: after the lease a retry re-renders from the resource", async () => {
  const s = scope();
  const id = newId("webhook");
  // What a process killed right after its commit leaves: committed, bound, no answer.
  await db().$transaction(async (tx) => {
    await createThing(tx, id);
    await tx.idempotencyRecord.create({
      data: { id: newId("idempotency"), merchantId, environment: "sandbox", idempotencyKey: s.key, method: s.method, path: s.path, requestHash: sha256Hex(canonicalJson({})), state: "committed", resourceType: "webhook", resourceId: id, lockedUntil: new Date(Date.now() - 1), expiresAt: new Date(Date.now() + 3600e3) },
    });
  });
  let runs = 0;
  const r = await withIdempotency(s, {}, async () => ({ status: 201, body: { runs: ++runs } }), { replay: async (ref) => ({ status: 201, body: { replayedFrom: ref } }) });
  assert.deepEqual([r.status, r.body, r.replayed], [201, { replayedFrom: { resource: "webhook", id } }, true]);
  assert.equal(runs, 0, "the use case never runs again");
  assert.equal((await record(s))?.state, "completed", "the re-rendered answer is stored");
});

test("crash before commit: after the lease the retry takes over, and the stale attempt can no longer bind", async () => {
  const s = scope();
  const stale = newId("webhook");
  const fresh = newId("webhook");
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let claimed!: () => void;
  const started = new Promise<void>((r) => (claimed = r));
  // The first attempt claims the key and stalls before its commit (a hung process).
  const first = withIdempotency(s, {}, async () => {
    claimed();
    await gate;
    await db().$transaction(async (tx) => {
      await createThing(tx, stale);
      await bindIdempotency(tx, { resource: "webhook", id: stale });
    });
    return { status: 201, body: { id: stale } };
  });
  await started;
  // Its lease runs out (as after a crash), and a retry takes the key over and commits.
  await sql(`UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE idempotency_key = $1`, [s.key]);
  const second = await withIdempotency(s, {}, async () => {
    await inBoundTransaction((tx) => createThing(tx, fresh), (t) => ({ resource: "webhook", id: t.id }));
    return { status: 201, body: { id: fresh } };
  });
  assert.deepEqual(second.body, { id: fresh });
  release();
  await assert.rejects(first, (e: unknown) => e instanceof AppError && e.code === "idempotency_conflict");
  assert.equal(await things(stale), 0, "the stale attempt's change rolled back");
  assert.equal(await things(fresh), 1);
  assert.equal((await record(s))?.resourceId, fresh);
});

test("dashboard forms: a double submit runs once; scoped per user and action; a refusal after commit is the same refusal", async () => {
  const d = { user: { id: "usr_a", email: "a@example.com", role: "owner" as const }, merchant: { id: merchantId } as never, environment: "sandbox" as const };
  const key = randomUUID();
  let runs = 0;
  const run = async () => {
    runs++;
    const t = await inBoundTransaction((tx) => createThing(tx), (x) => ({ resource: "webhook", id: x.id }));
    return { id: t.id };
  };
  const [a, b] = await Promise.all([onceForForm(d, "transfer", key, { amountUsd: 5 }, run), onceForForm(d, "transfer", key, { amountUsd: 5 }, run)]);
  assert.deepEqual(a, b);
  assert.equal(runs, 1);
  // The same key for another user or another action is another request.
  await onceForForm({ ...d, user: { ...d.user, id: "usr_b" } }, "transfer", key, { amountUsd: 5 }, run);
  await onceForForm(d, "fund-sandbox", key, { amountUsd: 5 }, run);
  assert.equal(runs, 3);
  // Without a key the action runs as before.
  await onceForForm(d, "transfer", undefined, {}, run);
  assert.equal(runs, 4);

  const refusing = async () => {
    runs++;
    await inBoundTransaction((tx) => createThing(tx), (x) => ({ resource: "webhook", id: x.id }));
    throw new AppError("payout_dispatch_failed", "refused", { details: { failureReason: "rejected" } });
  };
  const k2 = randomUUID();
  for (let i = 0; i < 2; i++) {
    await assert.rejects(onceForForm(d, "send-payout", k2, { amount: 1 }, refusing), (e: unknown) => e instanceof AppError && e.code === "payout_dispatch_failed" && e.details?.failureReason === "rejected");
  }
  assert.equal(runs, 5);
});

test("the one-statement bind (hot path): binds with the insert, or fails as a whole once the key was taken over", async () => {
  const plain = `INSERT INTO webhook_subscriptions (id, merchant_id, environment, url, managed, events, secret_encrypted, created_at, updated_at)
    VALUES ($1, $2, 'sandbox', 'https://example.com/h', false, ARRAY['*'], 'x', now(), now())`;
  const statement = boundInsert(plain.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), 2);
  const s = scope();
  const id = newId("webhook");
  await withIdempotency(s, {}, async () => {
    await sqlBound(statement, plain, [id, merchantId], { resource: "webhook", id });
    return { status: 201, body: {} };
  });
  assert.deepEqual([(await record(s))?.resourceId, await things(id)], [id, 1]);

  // Taken over while running: the insert does not happen.
  const t = scope();
  const stale = newId("webhook");
  await assert.rejects(
    withIdempotency(t, {}, async () => {
      await sql(`UPDATE idempotency_records SET id = $2 WHERE idempotency_key = $1`, [t.key, newId("idempotency")]);
      await sqlBound(statement, plain, [stale, merchantId], { resource: "webhook", id: stale });
      return { status: 201, body: {} };
    }),
    (e: unknown) => e instanceof AppError && e.code === "idempotency_conflict",
  );
  assert.equal(await things(stale), 0);
  // Without a key it is the plain insert.
  const free = newId("webhook");
  await sqlBound(statement, plain, [free, merchantId], { resource: "webhook", id: free });
  assert.equal(await things(free), 1);
});
