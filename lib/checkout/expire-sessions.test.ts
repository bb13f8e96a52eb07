// Session expiry against the test database: open sessions past their TTL become expired (their
// claim and document dropped), completed ones keep their state, and rows 30 days past expiry go.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { expireCheckoutSessions, SESSION_RETENTION_MS } from "@/lib/checkout/expire-sessions";
import { getCheckoutSession } from "@/lib/checkout/get-session";

after(() => db().$disconnect());

test("expires open sessions past their TTL, keeps live ones, purges long-expired rows", async () => {
  const m = await createMerchant({ name: "Expiry" });
  const now = new Date();
  const base = { merchantId: m.merchantId, shopId: m.shopId, environment: "sandbox" as const, amountUsd: 1000n, firstName: "A", lastName: "B", email: "a@b.co", phone: "+5511987654321", documentId: "52998224725" };
  const [live, due, done, old] = [newId("checkoutSession"), newId("checkoutSession"), newId("checkoutSession"), newId("checkoutSession")];
  await db().checkoutSession.createMany({
    data: [
      { ...base, id: live, expiresAt: new Date(now.getTime() + 60_000) },
      { ...base, id: due, expiresAt: new Date(now.getTime() - 1_000), claimTxId: "tx_x", claimedUntil: new Date(now.getTime() - 500) },
      { ...base, id: done, status: "completed", completedTxId: newId("transaction"), expiresAt: new Date(now.getTime() - 1_000) },
      { ...base, id: old, status: "expired", expiresAt: new Date(now.getTime() - SESSION_RETENTION_MS - 60_000) },
    ],
  });
  const { expired, purged } = await expireCheckoutSessions({ now });
  assert.ok(expired >= 1 && purged >= 1);
  const rows = new Map((await db().checkoutSession.findMany({ where: { id: { in: [live, due, done, old] } } })).map((r) => [r.id, r]));
  assert.equal(rows.get(live)?.status, "awaiting_method");
  assert.equal(rows.get(due)?.status, "expired");
  assert.equal(rows.get(due)?.documentId, null);
  assert.equal(rows.get(due)?.claimTxId, null);
  assert.equal(rows.get(done)?.status, "completed");
  assert.equal(rows.has(old), false);
  // Lookups enforce the TTL whatever the job has done.
  await assert.rejects(getCheckoutSession(done), /checkout session/i);
  assert.equal((await getCheckoutSession(live)).status, "awaiting_method");
  // Idempotent: a second run changes nothing more.
  assert.equal((await expireCheckoutSessions({ now })).expired, 0);
});
