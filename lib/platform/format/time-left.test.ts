import { test } from "node:test";
import assert from "node:assert/strict";
import { timeLeft } from "./time-left.ts";

const due = "2026-12-10T12:00:00.000Z";
const at = (ms: number) => Date.parse(due) - ms;
const H = 3_600_000;

test("days from two days on, rounded down so it never promises more", () => {
  assert.deepEqual(timeLeft(due, at(7 * 24 * H)), { words: "7 days left", urgent: false, closed: false });
  assert.equal(timeLeft(due, at(2 * 24 * H + 1)).words, "2 days left");
  assert.equal(timeLeft(due, at(3 * 24 * H - 1)).words, "2 days left");
});

test("hours below two days, urgent below one", () => {
  assert.deepEqual(timeLeft(due, at(2 * 24 * H - 1)), { words: "47 hours left", urgent: false, closed: false });
  assert.deepEqual(timeLeft(due, at(24 * H - 1)), { words: "23 hours left", urgent: true, closed: false });
  assert.equal(timeLeft(due, at(H)).words, "1 hour left");
});

test("minutes, then less than a minute, then closed", () => {
  assert.equal(timeLeft(due, at(H - 1)).words, "59 minutes left");
  assert.equal(timeLeft(due, at(60_000)).words, "1 minute left");
  assert.equal(timeLeft(due, at(59_999)).words, "less than a minute left");
  assert.deepEqual(timeLeft(due, at(0)), { words: "closed", urgent: false, closed: true });
  assert.deepEqual(timeLeft(due, at(-H)), { words: "closed", urgent: false, closed: true });
});

test("an unreadable date is closed, not a NaN in the page", () => {
  assert.equal(timeLeft("not a date", 0).closed, true);
});

test("pt-BR: the same units in a shop owner's words", () => {
  assert.equal(timeLeft(due, at(6 * 24 * H + 5), "pt-BR").words, "faltam 6 dias");
  assert.equal(timeLeft(due, at(H), "pt-BR").words, "falta 1 hora");
  assert.equal(timeLeft(due, at(59_999), "pt-BR").words, "falta menos de um minuto");
  assert.deepEqual(timeLeft(due, at(0), "pt-BR"), { words: "encerrado", urgent: false, closed: true });
});

test("es: the same units in Spanish", () => {
  assert.equal(timeLeft(due, at(6 * 24 * H + 5), "es").words, "quedan 6 días");
  assert.equal(timeLeft(due, at(H), "es").words, "queda 1 hora");
});
