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
