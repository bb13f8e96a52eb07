// The dashboard names the provider that served a payment by its real name: a PIX pay-in taken by
// Stripe (through the Stripe simulator, on the server configured for it) shows "Stripe" in the
// payment's details and in its cascade attempts, as the suite's own server renders the page from
// the shared database.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant, API_URL } from "./helpers.ts";
import { signIn } from "./dashboard-session.ts";
import { db } from "@/lib/platform/db";
import { createDashboardUser } from "@/lib/accounts/users";
import { email, payin, startStripeWorld, stopStripeWorld, type StripeWorld } from "./providers-stripe-setup.ts";

const PASSWORD = "correct horse battery staple 42";
let w: StripeWorld;
before(async () => (w = await startStripeWorld()));
after(async () => {
  await stopStripeWorld(w);
  await db().$disconnect();
});

test("a payment Stripe served reads 'Stripe' on its dashboard page (details and attempts), not the code", async () => {
  const m = await newMerchant();
  const owner = `owner-${randomUUID().slice(0, 8)}@example.com`;
  await createDashboardUser({ merchantId: m.merchantId, email: owner, password: PASSWORD, role: "owner" });
  const r = await api("/payments", { key: m.production.secretKey, body: payin("1001", email()), base: w.server.url });
  assert.equal(r.status, 200, r.text);
  const id = r.body.transactionId as string;
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id } })).provider, "stripe");

  const session = await signIn(owner, PASSWORD);
  const page = await fetch(`${API_URL}/dashboard/payments/${id}`, { headers: { cookie: `${session}; lp_dashboard_env=production` } });
  assert.equal(page.status, 200);
  const html = await page.text();
  // React separates adjacent text nodes with comments: read the page's text.
  const text = html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  assert.match(text, /Provider Stripe\b/, "the details name the provider");
  assert.match(text, /1 Stripe accepted/i, "the attempts name it too");
  assert.doesNotMatch(text, /Provider stripe\b/);
});
