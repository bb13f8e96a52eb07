// Shops (decisions.md, Shops): a shop-bound key sees and changes only its shop. The walk goes
// through every endpoint of lib/openapi/endpoints.ts with shop B's key and shop A's objects: no
// list, export or event of B's shows one of A's ids, and every read or change of one of A's objects
// by id is refused. What else belongs to a shop (key pairs, idempotency keys, webhook subscriptions)
// is shops-keys.test.ts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant, waitFor, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { createShop, type CreatedShop } from "@/lib/merchants/create-shop";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { registerEstablishment } from "@/lib/qr/establishments";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";
import { ok, paidPayment } from "./shops-fixtures.ts";

after(() => db().$disconnect());

type World = { m: CreatedMerchant; b: CreatedShop; a: Record<string, string> };

/** Shop A with one object of every shop-owned kind, and shop B beside it. */
async function twoShops(): Promise<World> {
  const m = await newMerchant();
  const b = await createShop({ merchantId: m.merchantId, name: "Shop B" });
  const key = m.sandbox.secretKey;
  const payment = await paidPayment(key, 40);
  const refunded = await api(`/payments/${payment}/refund`, { key, body: { amount: 1 } });
  ok(refunded);
  const cbTx = await paidPayment(key, 30);
  ok(await api(`/payments/${cbTx}/simulate`, { key, body: { action: "chargeback" } }));
  const claims = await api(`/claims?transactionId=${cbTx}&kind=chargeback`, { key });
  const chargeback = claims.body.data[0].id as string;
  const account = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "María López", email: `m-${randomUUID().slice(0, 6)}@example.com` } });
  assert.ok(account.status === 201 || account.status === 200, account.text);
  const pix = { name: "Ana Souza", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF" };
  const payout = await api("/me/payout/send", { key, body: { methodId: "sbx_po_br_pix", amount: 9.99, recipient: pix } });
  ok(payout);
  // A payout that moves money (a production rail in the sandbox is debited): its postings are
  // shop A's, and B's ledger export must not show them (they name no payment to scope by).
  ok(await api("/me/payout/fund-sandbox", { key, body: { currency: "BRL", amount: 50 } }));
  const debited = await api("/me/payout/send", { key, body: { methodId: "po_br_pix", amount: 12.5, recipient: pix } });
  ok(debited);
  const payoutPosting = await db().ledgerPosting.findFirstOrThrow({ where: { merchantId: m.merchantId, kind: "payout_debit" }, include: { entries: { select: { id: true } } } });
  await registerEstablishment({ shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  const qr = await api("/qr/orders", { key, body: { amount: 25.5, merchantOrderId: "qr-a" } });
  assert.ok(qr.status === 200 || qr.status === 201, qr.text);
  // A recurring PIX mandate, authorized, with one charge scheduled (its due date 20 days ahead).
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  const inDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const mandate = await api("/mandates", { key, body: { amount: 49.9, period: "monthly", startDate: inDays(15), customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" }, description: "Plano A" } });
  assert.equal(mandate.status, 201, mandate.text);
  ok(await api(`/mandates/${mandate.body.mandate.id}/simulate`, { key, body: { action: "authorize" } }));
  assert.equal((await api(`/mandates/${mandate.body.mandate.id}/charges`, { key, body: { dueDate: inDays(20) } })).status, 201);
  const sub = await api("/webhooks", { key, body: { events: ["*"] } });
  ok(sub);
  // A delivery under A's subscription, from a payment made after it.
  const late = await paidPayment(key, 11);
  const delivery = await waitFor(async () => (await api(`/webhooks/${sub.body.id}/deliveries`, { key })).body.data[0]?.id as string | undefined, "a delivery to shop A's subscription", 30_000);
  const event = (await api(`/events?objectId=${late}`, { key })).body.data[0].id as string;
  const world = {
    m,
    b,
    a: {
      payment,
      claim: refunded.body.refundId ?? refunded.body.id,
      chargeback,
      chargebackTx: cbTx,
      account: account.body.account.id,
      payout: payout.body.payout.id,
      debitedPayout: debited.body.payout.id,
      payoutPosting: payoutPosting.id,
      ...Object.fromEntries(payoutPosting.entries.map((e, i) => [`payoutEntry${i}`, e.id])),
      qr: qr.body.id ?? qr.body.order?.id,
      mandate: mandate.body.mandate.id,
      subscription: sub.body.id,
      delivery,
      event,
      late,
    },
  };
  for (const [k, v] of Object.entries(world.a)) assert.ok(typeof v === "string" && v.length > 3, `A's ${k}: ${v}`);
  return world as World;
}

/** Which of A's objects fills a path: keyed by the path's first segment(s). Merchant-level objects (no shop) are not A's. */
function pathFor(path: string, a: Record<string, string>): string | null {
  const fill = (id: string, extra: Record<string, string> = {}) => path.replace(/\{id\}/, id).replace(/\{(\w+)\}/g, (_, k: string) => extra[k] ?? "x_unknown");
  if (/^\/(payments|transactions)\/\{id\}/.test(path)) return fill(a.payment!);
  if (path.startsWith("/claims/{id}")) return fill(a.chargeback!, { evidenceId: "evd_unknown" });
  if (path.startsWith("/me/deposit-accounts/{id}")) return fill(a.account!);
  if (path.startsWith("/me/payout/send/{id}")) return fill(a.payout!);
  if (path.startsWith("/qr/orders/{id}")) return fill(a.qr!);
  if (path.startsWith("/mandates/{id}")) return fill(a.mandate!);
  if (path.startsWith("/webhooks/{id}")) return fill(a.subscription!, { deliveryId: a.delivery! });
  if (path === "/events/{id}") return fill(a.event!);
  return null;
}

// Endpoints with a path parameter whose objects belong to the merchant, not a shop (settlements,
// withdrawals, top-ups), or whose credential is the object itself (checkout tokens, providers).
// The merchant's own objects (no shop), and the listen inbox's deliveries (the merchant's, sandbox only).
const MERCHANT_LEVEL = /^\/(settlements|me\/withdrawals|me\/payout\/topups)\/\{id\}|^\/webhooks\/listen\/deliveries\//;

const BODIES: Record<string, unknown> = {
  "POST /payments/{id}/refund": { amount: 1 },
  "POST /payments/{id}/simulate": { action: "refunded" },
  "POST /claims/{id}/simulate": { action: "lost" },
  "POST /claims/{id}/accept": {},
  "POST /me/deposit-accounts/{id}/simulate-deposit": { amount: 100, payerName: "A B", payerBank: "BBVA" },
  "POST /me/payout/send/{id}/simulate": { action: "failed" },
  "POST /qr/orders/{id}/simulate": { action: "paid" },
  "POST /qr/orders/{id}/cancel": {},
  "POST /mandates/{id}/charges": { dueDate: "2099-01-01" },
  "POST /mandates/{id}/simulate": { action: "cancel_by_payer" },
  "PATCH /webhooks/{id}": { url: "https://example.com/stolen" },
  "POST /webhooks/{id}/rotate-secret": {},
  "POST /webhooks/{id}/deliveries/{deliveryId}/replay": {},
};

test("the walk: shop B's key never sees or changes shop A's objects, on any endpoint", async () => {
  const { m, b, a } = await twoShops();
  const keyB = b.sandbox.secretKey;
  const secretsOfA = Object.values(a);
  // B has objects of its own, so an empty answer is not what passes.
  const ownPayment = await paidPayment(keyB, 15);
  const seen: string[] = [];
  for (const e of ENDPOINTS) {
    if (e.auth === "none") continue; // token-held or signed by a provider: no key to walk with
    // The listen stream (server-sent events) stays open for its session; it carries the merchant's
    // listen inbox, covered by sdk/test/listen.test.ts.
    if (e.responseType === "text/event-stream") continue;
    const name = `${e.method} ${e.path}`;
    if (process.env.SHOPS_WALK_TRACE) console.log("walk", name);
    if (e.path.includes("{")) {
      if (MERCHANT_LEVEL.test(e.path)) continue;
      const path = pathFor(e.path, a);
      assert.ok(path, `${name}: the walk does not know which of A's objects this path names (add it to pathFor or MERCHANT_LEVEL)`);
      const body = e.method === "GET" || e.method === "DELETE" ? undefined : (BODIES[name] ?? {});
      const r = await api(path, { key: keyB, method: e.method, body });
      assert.ok(r.status >= 400 && r.status < 500, `${name} with shop B's key on A's object answered ${r.status}: ${r.text.slice(0, 300)}`);
      seen.push(name);
    } else if (e.method === "GET") {
      const r = await fetch(`${API_URL}/api/v1${e.path}`, { headers: { authorization: `Bearer ${keyB}` } });
      const text = await r.text();
      assert.ok(r.status < 500, `${name}: ${r.status} ${text.slice(0, 200)}`);
      for (const id of secretsOfA) assert.ok(!text.includes(id), `${name} with shop B's key shows shop A's ${id}: ${text.slice(0, 300)}`);
      seen.push(name);
    }
    // Other POSTs without a path parameter create the caller's own object (idempotency: its own test).
  }
  assert.ok(seen.includes("GET /events") && seen.includes("GET /exports/ledger.csv") && seen.includes("GET /exports/payouts.csv") && seen.includes("PATCH /webhooks/{id}"), seen.join(", "));
  // B's own lists still hold B's objects.
  assert.ok((await api("/payments", { key: keyB })).body.data.some((t: any) => t.id === ownPayment));
  const ledgerB = await (await fetch(`${API_URL}/api/v1/exports/ledger.csv`, { headers: { authorization: `Bearer ${keyB}` } })).text();
  assert.ok(ledgerB.includes(ownPayment), "B's ledger export has B's payment");
  // Nothing of A's changed: A's key still sees them as they were.
  const keyA = m.sandbox.secretKey;
  const sub = await api(`/webhooks/${a.subscription}`, { key: keyA });
  ok(sub);
  assert.notEqual(sub.body.url, "https://example.com/stolen");
  assert.equal(sub.body.status, "enabled");
  assert.equal((await db().webhookSubscription.findUniqueOrThrow({ where: { id: a.subscription! } })).previousSecretEncrypted, null, "never rotated");
  ok(await api(`/claims/${a.chargeback}`, { key: keyA }));
  assert.equal((await db().claim.findUniqueOrThrow({ where: { id: a.chargeback! } })).status, "open");
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: a.payment! } })).status, "completed");
  assert.equal((await api(`/me/payout/send/${a.payout}`, { key: keyA })).body.payout.status, "processing");
  assert.equal(await db().deposit.count({ where: { depositAccountId: a.account! } }), 0);
  // And A's own exports hold A's objects (the scoping hides, it does not lose).
  const ledgerA = await (await fetch(`${API_URL}/api/v1/exports/ledger.csv`, { headers: { authorization: `Bearer ${keyA}` } })).text();
  assert.ok(ledgerA.includes(a.payment!) && !ledgerA.includes(ownPayment));
  assert.ok(ledgerA.includes(a.payoutPosting!) && ledgerA.includes(a.payoutEntry0!), "A's ledger export has its payout's movements");
  // B's own payout is in B's export and not in A's; a merchant-wide key sees both.
  ok(await api("/me/payout/fund-sandbox", { key: keyB, body: { currency: "BRL", amount: 20 } }));
  const payoutB = await api("/me/payout/send", { key: keyB, body: { methodId: "po_br_pix", amount: 3, recipient: { name: "Ana Souza", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF" } } });
  ok(payoutB);
  const postingB = (await db().ledgerPosting.findMany({ where: { merchantId: m.merchantId, kind: "payout_debit" }, select: { id: true } })).map((p) => p.id).find((id) => id !== a.payoutPosting)!;
  assert.ok(postingB, "B's payout was debited");
  const csv = async (key: string) => (await fetch(`${API_URL}/api/v1/exports/ledger.csv`, { headers: { authorization: `Bearer ${key}` } })).text();
  const [nowA, nowB] = [await csv(keyA), await csv(keyB)];
  assert.ok(nowB.includes(postingB) && !nowB.includes(a.payoutPosting!), "B's ledger export: its payout, not A's");
  assert.ok(!nowA.includes(postingB), "A's ledger export: not B's payout");
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  const all = await csv(wide.secretKey);
  assert.ok(all.includes(postingB) && all.includes(a.payoutPosting!) && all.includes(a.payment!) && all.includes(ownPayment), "a merchant-wide key's ledger export has both shops'");
  const payoutsA = await (await fetch(`${API_URL}/api/v1/exports/payouts.csv`, { headers: { authorization: `Bearer ${keyA}` } })).text();
  assert.ok(payoutsA.includes(a.payout!));
});
