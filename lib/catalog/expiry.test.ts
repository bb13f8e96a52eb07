import { test } from "node:test";
import assert from "node:assert/strict";
import { expiresAtFor, railExpiry } from "@/lib/catalog/expiry";
import { PRODUCTION_RAILS, SANDBOX_RAILS } from "@/lib/rails/rails";
import { AppError } from "@/lib/platform/errors";

const byId = (id: string) => [...PRODUCTION_RAILS, ...SANDBOX_RAILS].find((r) => r.paymentMethodId === id)!;

test("defaults per rail: PIX and card 30 min, SPEI 24 h, OXXO and boleto 3 days, PSE 30 min", () => {
  assert.equal(railExpiry(byId("1001")).defaultMinutes, 30);
  assert.equal(railExpiry(byId("1006")).defaultMinutes, 30);
  assert.equal(railExpiry(byId("1003")).defaultMinutes, 1440);
  assert.equal(railExpiry(byId("1004")).defaultMinutes, 4320);
  assert.equal(railExpiry(byId("1002")).defaultMinutes, 4320);
  assert.equal(railExpiry(byId("1005")).defaultMinutes, 30);
  assert.equal(railExpiry(byId("sbx_cash")).defaultMinutes, 4320);
});

test("expiresInMinutes overrides within the rail's maximum; beyond it is invalid_request with the maximum", () => {
  const now = new Date("2026-11-24T00:00:00Z");
  assert.equal(expiresAtFor(byId("1003"), now, 120).toISOString(), "2026-11-24T02:00:00.000Z");
  assert.equal(expiresAtFor(byId("1001"), now).toISOString(), "2026-11-24T00:30:00.000Z");
  assert.throws(() => expiresAtFor(byId("1006"), now, 120), (e: unknown) => e instanceof AppError && e.code === "invalid_request" && e.param === "expiresInMinutes" && (e.details as { max: number }).max === 60);
});
