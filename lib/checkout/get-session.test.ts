// Buyer pages read their session through shared reads (lib/platform/shared-reads.ts): views of different
// sessions arriving together go as one statement, and each gets exactly its own session (or
// none for an unknown token), as reading it alone would.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { findSession } from "@/lib/checkout/get-session";
import { sharedReadStats } from "@/lib/platform/shared-reads";

after(() => db().$disconnect());

test("sessions viewed together are read in shared statements, each view its own session", async () => {
  const m = await createMerchant({ name: "Shared session reads" });
  const ids = Array.from({ length: 40 }, () => newId("checkoutSession"));
  const expiresAt = new Date(Date.now() + 3_600_000);
  await db().checkoutSession.createMany({
    data: ids.map((id, i) => ({ id, merchantId: m.merchantId, shopId: m.shopId, environment: "sandbox" as const, amountUsd: 1000n + BigInt(i), firstName: `Ana ${i}`, lastName: "Souza", email: `ana${i}@example.com`, phone: "+5511987654321", expiresAt })),
  });
  const unknown = newId("checkoutSession");
  const before = sharedReadStats();
  const read = await Promise.all([...ids, unknown].map((id) => findSession(id)));
  const after = sharedReadStats();
  assert.equal(after.runs - before.runs, ids.length + 1, "every view went through shared reads");
  assert.ok(after.statements - before.statements < ids.length, `views shared statements (${after.runs - before.runs} in ${after.statements - before.statements})`);
  for (let i = 0; i < ids.length; i++) {
    const s = read[i]!;
    assert.equal(s.id, ids[i]);
    assert.equal(s.amountUsd, 1000n + BigInt(i));
    assert.equal(s.firstName, `Ana ${i}`);
    assert.equal(s.expiresAt.getTime(), expiresAt.getTime());
  }
  assert.equal(read.at(-1), null, "an unknown token reads as no session");
});
