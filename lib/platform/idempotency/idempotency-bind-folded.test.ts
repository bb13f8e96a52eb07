// The claim folded into the use case's first write (foldClaim: POST /payments), against the test
// database: the write claims, binds and stores; concurrent identical requests write once; errors
// before and after the write; inside a transaction; taking over an abandoned claim; the answer
// stored in the same statement.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { db, sql } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { sqlBound } from "@/lib/platform/idempotency/batched-bind";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { merchantId, newBindMerchant, scope, record, createThing, things, foldedPlain, foldedBound, foldedClaiming, foldedUseCase } from "@/lib/test-fixtures/idempotency-bind";

before(newBindMerchant);
after(() => db().$disconnect());

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
