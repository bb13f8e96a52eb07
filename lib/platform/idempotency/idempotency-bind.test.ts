// The record bound in the protected change's own transaction (lib/platform/idempotency/bind.ts), against
// the test database: what a crash at each point leaves, what a retry then does, and the same
// mechanism behind dashboard forms (lib/dashboard/once.ts). The crash itself (SIGKILL of a
// server) is e2e/api/crash-recovery.test.ts; here a "crash" is a record left as a dead process
// leaves it.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { db, sql } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { bindIdempotency, inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { boundInsert, claimingInsert, sqlBound } from "@/lib/platform/idempotency/batched-bind";
import { canonicalJson, type IdempotencyScope } from "@/lib/platform/idempotency/keys";
import { idempotencyActive } from "@/lib/platform/idempotency/current";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { onceForForm } from "@/lib/dashboard/once";
import { createMerchant } from "@/lib/merchants/create-merchant";

let merchantId = "";
before(async () => {
  merchantId = (await createMerchant({ name: "Idempotency bind" })).merchantId;
});
after(() => db().$disconnect());

const scope = (): IdempotencyScope => ({ merchantId, environment: "sandbox", key: randomUUID(), method: "POST", path: "/test/bind" });
const record = async (s: IdempotencyScope) =>
  (await db().idempotencyRecord.findUnique({ where: { merchantId_environment_shopId_idempotencyKey_method_path: { merchantId: s.merchantId, environment: s.environment, shopId: s.shopId ?? "", idempotencyKey: s.key, method: s.method, path: s.path } } }));
/** A row that stands for "what the use case created": a webhook subscription is a cheap one. */
const createThing = (tx: Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0], id = newId("webhook")) =>
  tx.webhookSubscription.create({ data: { id, merchantId, environment: "sandbox", url: "https://example.com/h", managed: false, events: ["*"], secretEncrypted: "x" } });
const things = (id: string) => db().webhookSubscription.count({ where: { id } });

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

// The claim folded into the use case's first write (foldClaim: POST /payments).
const foldedPlain = `INSERT INTO webhook_subscriptions (id, merchant_id, environment, url, managed, events, secret_encrypted, created_at, updated_at)
    VALUES ($1, $2, 'sandbox', 'https://example.com/h', false, ARRAY['*'], 'x', now(), now())`;
const foldedBound = boundInsert(foldedPlain.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), 2);
const foldedClaiming = claimingInsert(foldedPlain.replace("VALUES ($1,", "VALUES ((SELECT $1 FROM bound),"), 2);
/** A folded use case: reads nothing, writes one row with the claim; counts how often it ran. */
function foldedUseCase(id: string, runs: { n: number; writes: number }, delayMs = 0) {
  return async () => {
    runs.n++;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await sqlBound(foldedBound, foldedPlain, [id, merchantId], { resource: "webhook", id }, foldedClaiming);
    runs.writes++;
    return { status: 201, body: { id } };
  };
}

test("folded claim: the first write claims the key, binds it and is stored; a retry replays without writing", async () => {
  const s = scope();
  const id = newId("webhook");
  const runs = { n: 0, writes: 0 };
  const first = await withIdempotency(s, { a: 1 }, foldedUseCase(id, runs), { foldClaim: true });
  assert.deepEqual([first.status, first.body, first.replayed], [201, { id }, false]);
  const r = await record(s);
  assert.deepEqual([r?.state, r?.resourceType, r?.resourceId, r?.responseStatus], ["completed", "webhook", id, 201]);
  // The retry runs the use case up to its write, which finds the key held: nothing written, the first answer.
  const again = await withIdempotency(s, { a: 1 }, foldedUseCase(newId("webhook"), runs), { foldClaim: true });
  assert.deepEqual([again.status, again.body, again.replayed], [201, { id }, true]);
  assert.deepEqual(runs, { n: 2, writes: 1 });
  // Another body under the key: 409, nothing written.
  await assert.rejects(withIdempotency(s, { a: 2 }, foldedUseCase(newId("webhook"), runs), { foldClaim: true }), (e: unknown) => e instanceof AppError && e.code === "idempotency_conflict");
  assert.equal(runs.writes, 1);
});

test("folded claim: 20 concurrent identical requests write once and all answer the same", async () => {
  const s = scope();
  const runs = { n: 0, writes: 0 };
  const ids = Array.from({ length: 20 }, () => newId("webhook"));
  const answers = await Promise.all(ids.map((id) => withIdempotency(s, { burst: true }, foldedUseCase(id, runs, 20), { foldClaim: true })));
  assert.equal(runs.writes, 1);
  assert.equal(answers.filter((a) => !a.replayed).length, 1);
  assert.equal(new Set(answers.map((a) => JSON.stringify(a.body))).size, 1);
  const written = (answers.find((a) => !a.replayed)!.body as { id: string }).id;
  assert.equal((await record(s))?.resourceId, written);
  assert.equal((await Promise.all(ids.map(things))).reduce((a, b) => a + b, 0), 1);
});

test("folded claim: an error before the write stores nothing and frees nothing to free; an error after it is stored", async () => {
  const s = scope();
  await assert.rejects(
    withIdempotency(s, {}, async () => {
      throw new AppError("amount_invalid", "no");
    }, { foldClaim: true, renderError: (e) => (e instanceof AppError ? { status: 400, body: { code: e.code } } : null) }),
  );
  assert.equal(await record(s), null);
  // A key held by another body: a use case failing before its write still answers 409, as claim-first does.
  const held = scope();
  const runsHeld = { n: 0, writes: 0 };
  await withIdempotency(held, { a: 1 }, foldedUseCase(newId("webhook"), runsHeld), { foldClaim: true });
  await assert.rejects(
    withIdempotency(held, { a: 2 }, async () => {
      throw new AppError("amount_out_of_limits", "too much");
    }, { foldClaim: true }),
    (e: unknown) => e instanceof AppError && e.code === "idempotency_conflict",
  );
  // After the write: the error answer is stored and replayed, the use case does not run again.
  const id = newId("webhook");
  const runs = { n: 0, writes: 0 };
  const failAfter = async () => {
    await foldedUseCase(id, runs)();
    throw new AppError("cascade_exhausted", "kept pending");
  };
  const renderError = (e: unknown) => (e instanceof AppError ? { status: 402, body: { code: e.code } } : null);
  await assert.rejects(withIdempotency(s, {}, failAfter, { foldClaim: true, renderError }));
  const replay = await withIdempotency(s, {}, failAfter, { foldClaim: true, renderError });
  assert.deepEqual([replay.status, replay.body, replay.replayed, runs.writes], [402, { code: "cascade_exhausted" }, true, 1]);
});

test("folded claim in a transaction: bindIdempotency claims with the change, or rolls it back when the key is held", async () => {
  const s = scope();
  const id = newId("webhook");
  const inTx = (thing: string) => async () => {
    await db().$transaction(async (tx) => {
      await createThing(tx, thing);
      await bindIdempotency(tx, { resource: "webhook", id: thing });
    });
    return { status: 201, body: { id: thing } };
  };
  assert.equal((await withIdempotency(s, {}, inTx(id), { foldClaim: true })).replayed, false);
  assert.deepEqual([(await record(s))?.state, (await record(s))?.resourceId, await things(id)], ["completed", id, 1]);
  const other = newId("webhook");
  const again = await withIdempotency(s, {}, inTx(other), { foldClaim: true });
  assert.deepEqual([again.replayed, again.body, await things(other)], [true, { id }, 0]);
});

test("folded claim takes over an abandoned claim (its lease over) as the claim-first order does", async () => {
  const s = scope();
  // A claim-first attempt that died before binding: `processing`, lease over.
  await sql(
    `INSERT INTO idempotency_records (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, shop_id, created_at, updated_at)
     VALUES ($1, $2, 'sandbox', $3, $4, $5, $6, 'processing', now() - interval '1 second', now() + interval '1 day', '', now(), now())`,
    [newId("idempotency"), merchantId, s.key, s.method, s.path, "stale"],
  );
  const id = newId("webhook");
  const runs = { n: 0, writes: 0 };
  const r = await withIdempotency(s, {}, foldedUseCase(id, runs), { foldClaim: true });
  assert.deepEqual([r.replayed, runs.writes, (await record(s))?.resourceId], [false, 1, id]);
});

test("folded claim with the answer: the write stores it completed in the same statement; an error after it is stored over it", async () => {
  const s = scope();
  const id = newId("webhook");
  let seen: Awaited<ReturnType<typeof record>> = null;
  const r = await withIdempotency(
    s,
    {},
    async () => {
      await sqlBound(foldedBound, foldedPlain, [id, merchantId], { resource: "webhook", id }, foldedClaiming, { id, n: 1 });
      seen = await record(s);
      return { status: 201, body: { id, n: 1 } };
    },
    { foldClaim: true, successStatus: 201 },
  );
  assert.equal(r.replayed, false);
  // Already completed with its answer when the write returned: nothing more to write.
  assert.deepEqual([seen!.state, seen!.responseStatus, seen!.responseBody, seen!.resourceId], ["completed", 201, JSON.stringify({ id, n: 1 }), id]);
  const again = await withIdempotency(s, {}, foldedUseCase(newId("webhook"), { n: 0, writes: 0 }), { foldClaim: true, successStatus: 201 });
  assert.deepEqual([again.replayed, again.body], [true, { id, n: 1 }]);

  // The use case answers otherwise than the write said: the answer given is the one stored.
  const t = scope();
  const other = newId("webhook");
  await withIdempotency(t, {}, async () => {
    await sqlBound(foldedBound, foldedPlain, [other, merchantId], { resource: "webhook", id: other }, foldedClaiming, { draft: true });
    return { status: 201, body: { final: true } };
  }, { foldClaim: true, successStatus: 201 });
  assert.equal((await record(t))?.responseBody, JSON.stringify({ final: true }));

  // An error after the write: the error is stored over the success the write stored.
  const u = scope();
  const third = newId("webhook");
  await assert.rejects(
    withIdempotency(u, {}, async () => {
      await sqlBound(foldedBound, foldedPlain, [third, merchantId], { resource: "webhook", id: third }, foldedClaiming, { ok: true });
      throw new AppError("cascade_exhausted", "kept pending");
    }, { foldClaim: true, successStatus: 201, renderError: (e) => (e instanceof AppError ? { status: 402, body: { code: e.code } } : null) }),
  );
  assert.deepEqual([(await record(u))?.responseStatus, (await record(u))?.responseBody], [402, JSON.stringify({ code: "cascade_exhausted" })]);
});
