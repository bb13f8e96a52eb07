import { test } from "node:test";
import assert from "node:assert/strict";
import { amountBand, circuitState } from "./stats.ts";

const cfg = { windowMs: 60_000, errorRate: 0.5, minVolume: 5, coolDownMs: 15_000 };

test("the circuit opens on errors, half-opens after the cool-down, closes when the provider answers", () => {
  const t0 = 1_000_000;
  // Healthy: errors below the threshold.
  assert.equal(circuitState({ total: 10, errors: 2, lastErrorAt: t0, lastAnswerAt: t0 - 1 }, t0, cfg), "closed");
  // Too few attempts to judge.
  assert.equal(circuitState({ total: 3, errors: 3, lastErrorAt: t0, lastAnswerAt: null }, t0, cfg), "closed");
  // 6 of 8 failed, the last one an error: open.
  const failing = { total: 8, errors: 6, lastErrorAt: t0, lastAnswerAt: t0 - 5_000 };
  assert.equal(circuitState(failing, t0 + 1_000, cfg), "open");
  // Past the cool-down: half-open (a probe may go).
  assert.equal(circuitState(failing, t0 + 15_000, cfg), "half_open");
  // The probe fails: open again for a cool-down from that error.
  const probeFailed = { total: 9, errors: 7, lastErrorAt: t0 + 15_100, lastAnswerAt: t0 - 5_000 };
  assert.equal(circuitState(probeFailed, t0 + 16_000, cfg), "open");
  // The probe answers: closed, whatever the window's rate.
  const probeAnswered = { total: 9, errors: 6, lastErrorAt: t0, lastAnswerAt: t0 + 15_100 };
  assert.equal(circuitState(probeAnswered, t0 + 16_000, cfg), "closed");
});

test("amount bands", () => {
  assert.equal(amountBand(4_999n), "lt50");
  assert.equal(amountBand(5_000n), "lt500");
  assert.equal(amountBand(50_000n), "ge500");
});

test("evidence: errors are the circuit's, the buyer's declines count for no provider", async () => {
  const { evidenceOf } = await import("./window.ts");
  assert.equal(evidenceOf("approved", null), "approved");
  assert.equal(evidenceOf("hard", "do_not_honor"), "declined", "the issuer's generic refusal is the provider's result");
  assert.equal(evidenceOf("declined", "provider_rate_limited"), "declined");
  assert.equal(evidenceOf("hard", "insufficient_funds"), null);
  assert.equal(evidenceOf("error", "provider_unavailable"), "error");
});

test("the change detector forgets a provider's history when its latest answers disagree with it", async () => {
  const { scoreBuckets } = await import("./window.ts");
  const cfg = { halfLifeMs: 300_000, changeThreshold: 5 };
  // 200 s of 90 % approvals, one answer a second.
  const good = Array.from({ length: 200 }, (_, i) => ({ start: i * 1000, approved: i % 10 === 0 ? 0 : 1, declined: i % 10 === 0 ? 1 : 0, errors: 0 }));
  const steady = scoreBuckets(good, 200_000, cfg, null);
  assert.equal(steady.resetAt, null, "no change, no reset");
  assert.ok(steady.score.approved / (steady.score.approved + steady.score.failed) > 0.85);
  // Then it falls: refusals only, one a minute (success-rate has stopped sending it traffic;
  // the detector counts the provider's own answers, not time). A handful is enough.
  let resetAt: number | null = null;
  let seen = 0;
  const falling = [...good];
  for (let k = 0; k < 10 && resetAt === null; k++) {
    falling.push({ start: 260_000 + k * 60_000, approved: 0, declined: 1, errors: 0 });
    const r = scoreBuckets(falling, 260_000 + k * 60_000, cfg, null);
    resetAt = r.resetAt;
    seen = k + 1;
    if (resetAt !== null) assert.equal(r.score.approved, 0, "scored on the answers after the change only");
  }
  assert.ok(resetAt !== null && seen <= 5, `detected after ${seen} refusals`);
  // Once reset, the history before it stays forgotten; and a recovery is a change too.
  const now = 260_000 + seen * 60_000;
  assert.ok(scoreBuckets(falling, now, cfg, resetAt).score.failed <= seen + 0.01);
  const back = [...falling, ...Array.from({ length: 6 }, (_, k) => ({ start: now + k * 1000, approved: 1, declined: 0, errors: 0 }))];
  const recovered = scoreBuckets(back, now + 6000, cfg, resetAt);
  assert.notEqual(recovered.resetAt, resetAt, "six approvals after the refusals: a change up");
  assert.equal(recovered.score.failed, 0);
});

test("a provider that fell is probed on a schedule and, back at its old rate, gets its history back", async () => {
  const { watchBuckets, probeDue, FRESH, RESTORE_RUN } = await import("./window.ts");
  const cfg = { halfLifeMs: 300_000, changeThreshold: 5 };
  const probes = { intervalMs: 20_000, maxIntervalMs: 60_000 };
  // 200 s of 90 % approvals, then refusals until the detector sees the fall.
  const list = Array.from({ length: 200 }, (_, i) => ({ start: i * 1000, approved: i % 10 === 0 ? 0 : 1, declined: i % 10 === 0 ? 1 : 0, errors: 0 }));
  let memory = FRESH;
  let t = 200_000;
  for (let k = 0; k < 10 && !memory.fallen; k++, t += 1000) {
    list.push({ start: t, approved: 0, declined: 1, errors: 0 });
    memory = watchBuckets(list, t, cfg, memory).memory;
  }
  assert.ok(memory.fallen, "the fall is seen");
  const fellAt = memory.fallen.at;
  // Probes: none right after the fall, one after the interval, then the interval doubles per refusal.
  assert.equal(probeDue(list, memory, fellAt + 19_000, probes), false);
  assert.equal(probeDue(list, memory, fellAt + 20_000, probes), true);
  list.push({ start: fellAt + 20_000, approved: 0, declined: 1, errors: 0 });
  memory = watchBuckets(list, fellAt + 20_000, cfg, memory).memory;
  assert.ok(memory.fallen, "a refused probe keeps it fallen");
  assert.equal(probeDue(list, memory, fellAt + 20_000 + 39_000, probes), false);
  assert.equal(probeDue(list, memory, fellAt + 20_000 + 40_000, probes), true);
  // An approved probe is confirmed at once; RESTORE_RUN in a row restore the history before the fall.
  t = fellAt + 60_000;
  list.push({ start: t, approved: 1, declined: 0, errors: 0 });
  let r = watchBuckets(list, t, cfg, memory);
  memory = r.memory;
  assert.equal(probeDue(list, memory, t + 1, probes), true, "after an approval, the next probe is due at once");
  for (let k = 1; k < RESTORE_RUN; k++) {
    list.push({ start: t + k * 1000, approved: 1, declined: 0, errors: 0 });
    r = watchBuckets(list, t + k * 1000, cfg, memory);
    memory = r.memory;
  }
  assert.equal(memory.fallen, null, "back");
  assert.equal(probeDue(list, memory, t + 100_000, probes), false, "no more probes");
  assert.ok(r.score.approved > 100, "its long history counts again");
  assert.ok(r.score.approved / (r.score.approved + r.score.failed) > 0.85, "without the fallen period's refusals");
});
