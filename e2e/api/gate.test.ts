// One gate for every caller (issue 11, item 5), over real HTTP: a viewer cannot reach any money
// action through any entry point (API routes with the key kind that has no money permission,
// dashboard server actions, dashboard data reads, the buyer's sandbox buttons), the owner's same
// calls go through, and the sandbox-only rule answers the contract's code on every entry point.
// One file: the API steps make the objects the dashboard's steps then act on (gate-fixtures.ts).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { API_URL, api, assertEnvelope, waitFor } from "./helpers.ts";
import { actionResult, callAction } from "./dashboard-session.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { registerEstablishment } from "@/lib/qr/establishments";
import { DAY, email, speiRecipient, m, sk, owner, viewer, ids, find, keyRolled, ok, setUpGate, concrete, moneyEndpoints, snapshot, settledSnapshot } from "./gate-fixtures.ts";

after(() => db().$disconnect());
before(setUpGate);

describe("API routes", () => {
  test("a publishable key (no money permission, like a viewer) is refused on every money endpoint, sandbox and live, before any lookup", async () => {
    const money = moneyEndpoints();
    assert.ok(money.length >= 18, `money endpoints: ${money.length}`);
    for (const e of money) {
      for (const key of [m.sandbox.publishableKey, m.production.publishableKey]) {
        assertEnvelope(await api(concrete(e.path), { key, method: e.method, ...(e.method === "GET" || e.method === "DELETE" ? {} : { body: {} }) }), "key_kind_not_allowed", 403);
      }
    }
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 0, "nothing was created");
  });

  test("a live secret key gets each sandbox-only endpoint's own contract code", async () => {
    const live = m.production.secretKey;
    for (const [path, body, code] of [
      ["/payments/tx_gate_1/simulate", { action: "paid" }, "production_key_refused"],
      ["/me/deposit-accounts/da_gate_1/simulate-deposit", { amount: 100, payerName: "P", payerBank: "B" }, "production_key_refused"],
      ["/me/payout/fund-sandbox", { currency: "MXN", amount: 10 }, "fund_sandbox_only"],
      ["/me/payout/send/po_gate_1/simulate", { action: "completed" }, "simulate_sandbox_only"],
      ["/settlements/run", { waiveMinimum: true }, "production_key_refused"],
      ["/webhooks/whk_gate_1/test", {}, "production_key_refused"],
    ] as const) {
      assertEnvelope(await api(path, { key: live, body }), code, 400);
    }
  });

  test("the merchant's secret key does every money action (and sets up what the dashboard acts on)", async () => {
    const pay = () => ok(api("/payments", { key: sk, body: { amount: 10, paymentMethodId: "sbx_card" } }), "POST /payments");
    ids.pending = (await pay()).transactionId;
    ids.pending2 = (await pay()).transactionId;
    ids.completed = (await pay()).transactionId;
    await ok(api("/transactions", { key: sk, body: { amount: 10, paymentMethodId: "sbx_card" } }), "POST /transactions");
    await ok(api("/checkout/sessions", { key: sk, body: { amount: 100, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" } } }), "POST /checkout/sessions");
    await ok(api(`/payments/${ids.completed}/simulate`, { key: sk, body: { action: "paid" } }), "simulate paid");
    await ok(api(`/payments/${ids.completed}/refund`, { key: sk, body: { amount: 1 } }), "refund");

    ids.account = (await ok(api("/me/deposit-accounts", { key: sk, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email("payer") } }), "POST /me/deposit-accounts")).account.id;
    await ok(api(`/me/deposit-accounts/${ids.account}/simulate-deposit`, { key: sk, body: { amount: 1820, payerName: "P", payerBank: "B" } }), "simulate-deposit");
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
    await ok(api("/me/payout/transfer", { key: sk, body: { amountUsd: 20 } }), "transfer");
    await ok(api("/me/payout/fund-sandbox", { key: sk, body: { currency: "MXN", amount: 1000 } }), "fund-sandbox");
    const quote = await ok(api("/me/payout/swap?currency=MXN&amountUsd=5", { key: sk }), "swap quote");
    await ok(api("/me/payout/swap", { key: sk, body: { quoteId: quote.quoteId } }), "swap");
    ids.quote = (await ok(api("/me/payout/swap?currency=MXN&amountUsd=2", { key: sk }), "second quote")).quoteId;
    const send = () => ok(api("/me/payout/send", { key: sk, body: { methodId: "sbx_po_mx_spei", amount: 10, recipient: speiRecipient() } }), "send");
    ids.payout = (await send()).payout.id;
    ids.payout2 = (await send()).payout.id;
    await ok(api(`/me/payout/send/${ids.payout2}/simulate`, { key: sk, body: { action: "processing" } }), "payout simulate");

    ids.hook = (await ok(api("/webhooks", { key: sk, body: { events: ["payment.completed"] } }), "POST /webhooks")).id;
    ids.hook2 = (await ok(api("/webhooks", { key: sk, body: { events: ["*"] } }), "second webhook")).id;
    await ok(api(`/webhooks/${ids.hook}`, { key: sk, method: "PATCH", body: { events: ["payment.completed", "payment.failed"] } }), "PATCH webhook");
    await ok(api(`/webhooks/${ids.hook}/rotate-secret`, { key: sk, method: "POST" }), "rotate-secret");
    await ok(api(`/payments/${ids.pending2}/simulate`, { key: sk, body: { action: "paid" } }), "a payment for a delivery");
    ids.delivery = (
      await waitFor(async () => {
        const r = await api(`/webhooks/${ids.hook}/deliveries`, { key: sk });
        return r.body?.data?.[0]?.status === "succeeded" && r.body.data[0];
      }, "a delivery to the managed inbox")
    ).id;
    await ok(api(`/webhooks/${ids.hook}/deliveries/${ids.delivery}/replay`, { key: sk, method: "POST" }), "replay");
    await ok(api(`/webhooks/${ids.hook}/test`, { key: sk, method: "POST", body: {} }), "test event");
    const extra = (await ok(api("/webhooks", { key: sk, body: { events: ["*"] } }), "third webhook")).id;
    await ok(api(`/webhooks/${extra}`, { key: sk, method: "DELETE" }), "DELETE webhook");
    ids.pending2 = (await pay()).transactionId;

    // Chargebacks to answer (evidence, accept, decide), QR orders (create, cancel, simulate) and
    // a settlement batch (run, simulate).
    const disputed = async () => {
      const id = (await pay()).transactionId;
      await ok(api(`/payments/${id}/simulate`, { key: sk, body: { action: "paid" } }), "paid before the chargeback");
      await ok(api(`/payments/${id}/simulate`, { key: sk, body: { action: "chargeback" } }), "chargeback");
      return (await ok(api(`/claims?transactionId=${id}`, { key: sk }), "GET /claims")).data[0].id as string;
    };
    ids.claim = await disputed();
    ids.claim2 = await disputed();
    const third = await disputed();
    const form = new FormData();
    form.append("text", "Delivered.");
    assert.equal((await fetch(`${API_URL}/api/v1/claims/${third}/evidence`, { method: "POST", headers: { authorization: `Bearer ${sk}` }, body: form })).status, 201);
    await ok(api(`/claims/${third}/accept`, { key: sk, body: {} }), "accept");
    await registerEstablishment({ shopId: m.shopId, name: "Gate Cafe", city: "Sao Paulo", mcc: "5814" });
    const order = () => ok(api("/qr/orders", { key: sk, body: { amount: 10, merchantOrderId: `g-${randomUUID().slice(0, 6)}` } }), "POST /qr/orders");
    ids.qr = (await order()).order.id;
    ids.qr2 = (await order()).order.id;
    await ok(api(`/qr/orders/${(await order()).order.id}/cancel`, { key: sk, body: {} }), "QR cancel");
    await ok(api("/me/settlement-destination", { key: sk, method: "PUT", body: { asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } }), "settlement destination");
    const big = (await ok(api("/payments", { key: sk, body: { amount: 80, paymentMethodId: "sbx_card" } }), "a payment to settle")).transactionId;
    await ok(api(`/payments/${big}/simulate`, { key: sk, body: { action: "paid" } }), "paid");
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
    ids.settlement = (await ok(api("/settlements/run", { key: sk, body: {} }), "settlement run")).settlement.id;
    // The batch swept the available balance: some back for the dashboard's refund below.
    const more = (await ok(api("/payments", { key: sk, body: { amount: 80, paymentMethodId: "sbx_card" } }), "a payment after the batch")).transactionId;
    await ok(api(`/payments/${more}/simulate`, { key: sk, body: { action: "paid" } }), "paid");
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
    ids.withdrawal = (await ok(api("/me/withdrawals", { key: sk, body: { amountUsd: 5 } }), "POST /me/withdrawals")).withdrawal.id;
    ids.topup = (await ok(api("/me/payout/topups", { key: sk, body: { asset: "USDT", network: "TRON" } }), "POST /me/payout/topups")).topup.id;

    const pair = await db().apiKeyPair.findFirstOrThrow({ where: { merchantId: m.merchantId, shopId: m.shopId, environment: "sandbox", revokedAt: null }, select: { id: true } });
    ids.keyPair = pair.id;
  });
});
describe("dashboard", () => {
  const recipient = speiRecipient();
  // Every money action of server/actions/ (the areas below), where the owner's pages carry it, and its arguments.
  const ACTIONS: Array<{ name: string; page: () => string; args: () => unknown[] }> = [
    { name: "refundAction", page: () => `/dashboard/payments/${ids.completed}`, args: () => [ids.completed, { amount: "1" }] },
    { name: "simulateAction", page: () => `/dashboard/payments/${ids.pending}`, args: () => [ids.pending, "paid"] },
    { name: "createWebhookAction", page: () => "/dashboard/webhooks", args: () => [{ events: ["*"] }] },
    // Before updateWebhookAction disables the subscription (a disabled one takes no test event).
    { name: "sendTestEventAction", page: () => `/dashboard/webhooks/${ids.hook}`, args: () => [ids.hook] },
    { name: "updateWebhookAction", page: () => `/dashboard/webhooks/${ids.hook}`, args: () => [ids.hook, { status: "disabled" }] },
    { name: "rotateWebhookSecretAction", page: () => `/dashboard/webhooks/${ids.hook}`, args: () => [ids.hook] },
    { name: "replayDeliveryAction", page: () => `/dashboard/webhooks/${ids.hook}`, args: () => [ids.hook, ids.delivery] },
    { name: "deleteWebhookAction", page: () => `/dashboard/webhooks/${ids.hook2}`, args: () => [ids.hook2] },
    { name: "simulateDepositAction", page: () => `/dashboard/deposit-accounts/${ids.account}`, args: () => [ids.account, { amount: "100", payerName: "P", payerBank: "B" }] },
    { name: "createTestDepositAccountAction", page: () => "/dashboard/deposit-accounts", args: () => [{ endUserRef: "gate-test-user", name: "Gate Test", email: "gate-test@example.com" }] },
    { name: "fundSandboxAction", page: () => "/dashboard/payouts/funding", args: () => [{ currency: "MXN", amount: "100" }] },
    { name: "transferToPayoutAction", page: () => "/dashboard/payouts/funding", args: () => [{ amountUsd: "1" }] },
    { name: "quoteSwapAction", page: () => "/dashboard/payouts/funding", args: () => [{ currency: "MXN", amountUsd: "1" }] },
    { name: "executeSwapAction", page: () => "/dashboard/payouts/funding", args: () => [ids.quote] },
    { name: "sendPayoutAction", page: () => "/dashboard/payouts/send", args: () => [{ methodId: "sbx_po_mx_spei", amount: "10", recipient }] },
    { name: "simulatePayoutAction", page: () => `/dashboard/payouts/${ids.payout}`, args: () => [ids.payout, "completed"] },
    { name: "acceptClaimAction", page: () => `/dashboard/claims/${ids.claim}`, args: () => [ids.claim] },
    { name: "simulateClaimAction", page: () => `/dashboard/claims/${ids.claim2}`, args: () => [ids.claim2, "lost"] },
    { name: "createQrOrderAction", page: () => "/dashboard/qr", args: () => [{ amount: "12", merchantOrderId: "gate-qr" }] },
    { name: "cancelQrOrderAction", page: () => "/dashboard/qr", args: () => [ids.qr] },
    { name: "simulateQrOrderAction", page: () => "/dashboard/qr", args: () => [ids.qr2, "paid"] },
    { name: "setSettlementDestinationAction", page: () => "/dashboard/settlements", args: () => [{ asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }] },
    { name: "runSettlementAction", page: () => "/dashboard/settlements", args: () => [] },
    { name: "simulateSettlementAction", page: () => "/dashboard/settlements", args: () => [ids.settlement, "paid"] },
    { name: "withdrawAction", page: () => "/dashboard/withdrawals", args: () => [{ amountUsd: "2" }] },
    { name: "simulateWithdrawalAction", page: () => "/dashboard/withdrawals", args: () => [ids.withdrawal, "completed"] },
    { name: "createTopupAction", page: () => "/dashboard/topups", args: () => [{ asset: "USDC", network: "POLYGON" }] },
    { name: "simulateTopupAction", page: () => "/dashboard/topups", args: () => [ids.topup, "25"] },
    { name: "testCascadeAction", page: () => "/dashboard/developers", args: () => [{ paymentMethodId: "sbx_card", amount: "5", steps: ["accept"], notices: [] }] },
    { name: "settleNowAction", page: () => "/dashboard/settlements", args: () => [] },
    { name: "registerQrSandboxAction", page: () => "/dashboard/qr", args: () => [{ name: "Gate Cafe", city: "Sao Paulo", mcc: "5812" }] },
    // After the withdrawal: it sweeps whatever is available, however small.
    { name: "runSmallSettlementAction", page: () => "/dashboard/settlements", args: () => [] },
    // Last: it rolls the sandbox secret key the API steps above used.
    { name: "rollSecretKeyAction", page: () => "/dashboard/developers", args: () => [ids.keyPair] },
  ];

  test("every money server action of the dashboard is in the list this suite drives", async () => {
    const fs = await import("node:fs/promises");
    // Session, account, team and routing actions are checked by their own suites.
    const areas = ["payments", "claims", "qr", "settlements", "withdrawals", "topups", "webhooks", "keys", "deposits", "payouts", "sandbox"];
    const exported: string[] = [];
    for (const area of areas) {
      const source = await fs.readFile(new URL(`../../server/actions/${area}.ts`, import.meta.url), "utf8");
      exported.push(...[...source.matchAll(/export const (\w+) = dashboardAction\(/g)].map((x) => x[1]!));
    }
    assert.deepEqual(exported.sort(), ACTIONS.map((a) => a.name).sort());
  });

  test("a viewer calling each money action directly gets forbidden and nothing changes; the owner's same call succeeds", async () => {
    const resolved = [];
    for (const a of ACTIONS) resolved.push({ ...a, ...(await find(a.name, [a.page()])) });
    const before = await settledSnapshot();
    for (const a of resolved) {
      const r = await callAction(viewer, a.page, a.id, a.args());
      const result = actionResult(r.text);
      assert.equal(result.ok, false, `${a.name} as a viewer: ${r.text.slice(0, 300)}`);
      assert.equal(result.error!.code, "forbidden", a.name);
      assert.doesNotMatch(r.text, /whsec_|sk_test_/, `${a.name} leaks no secret`);
    }
    assert.equal(await snapshot(), before, "nothing changed");

    for (const a of resolved) {
      // A quote lives 60 s, less than this suite takes to get here on a busy machine: a fresh one.
      if (a.name === "executeSwapAction") ids.quote = (await ok(api("/me/payout/swap?currency=MXN&amountUsd=2", { key: sk }), "a fresh quote")).quoteId;
      const r = await callAction(owner, a.page, a.id, a.args());
      const result = actionResult(r.text);
      assert.equal(result.ok, true, `${a.name} as the owner: ${r.text.slice(0, 400)}`);
      if (a.name === "rollSecretKeyAction") keyRolled(result.data.secretKey);
    }
    assert.equal((await api("/ping", { key: sk })).status, 200, "the rolled key works");
  });

  test("in production, each sandbox-only action answers the API's code for it (the owner, who may otherwise)", async () => {
    const live = `${owner}; lp_dashboard_env=production`;
    for (const [name, page, args, code] of [
      ["simulateAction", `/dashboard/payments/${ids.pending2}`, [ids.pending2, "paid"], "production_key_refused"],
      ["simulateDepositAction", `/dashboard/deposit-accounts/${ids.account}`, [ids.account, { amount: "100", payerName: "P", payerBank: "B" }], "production_key_refused"],
      ["fundSandboxAction", "/dashboard/payouts/funding", [{ currency: "MXN", amount: "100" }], "fund_sandbox_only"],
      ["simulatePayoutAction", `/dashboard/payouts/${ids.payout2}`, [ids.payout2, "completed"], "simulate_sandbox_only"],
      ["simulateClaimAction", `/dashboard/claims/${ids.claim2}`, [ids.claim2, "won"], "production_key_refused"],
      ["runSettlementAction", "/dashboard/settlements", [], "production_key_refused"],
      ["runSmallSettlementAction", "/dashboard/settlements", [], "production_key_refused"],
      ["createTestDepositAccountAction", "/dashboard/deposit-accounts", [{ endUserRef: "gate-live-user", name: "Gate Live", email: "gate-live@example.com" }], "production_key_refused"],
      ["sendTestEventAction", `/dashboard/webhooks/${ids.hook}`, [ids.hook], "production_key_refused"],
      ["simulateSettlementAction", "/dashboard/settlements", [ids.settlement, "paid"], "production_key_refused"],
      ["simulateWithdrawalAction", "/dashboard/withdrawals", [ids.withdrawal, "completed"], "production_key_refused"],
      ["simulateTopupAction", "/dashboard/topups", [ids.topup, "25"], "production_key_refused"],
      ["settleNowAction", "/dashboard/settlements", [], "production_key_refused"],
      ["registerQrSandboxAction", "/dashboard/qr", [{ name: "Gate Cafe", city: "Sao Paulo", mcc: "5812" }], "production_key_refused"],
      // The routing rule trial writes nothing, and is the sandbox's all the same.
      ["tryRoutingAction", "/dashboard/routing", [{ rules: [], paymentMethodId: "sbx_spei", amountUsd: "25", count: "1" }], "production_key_refused"],
    ] as const) {
      const { id } = await find(name, [page]);
      const result = actionResult((await callAction(live, page, id, [...args])).text);
      assert.equal(result.ok, false, name);
      assert.equal(result.error!.code, code, name);
    }
    assert.equal((await api(`/payments/${ids.pending2}`, { key: sk })).body.status, "pending");
  });

  test("data reads: a viewer reads every resource, none reveals a secret or moves money; other names 404, other methods 405", async () => {
    const reads = [
      "overview", "payments", `payment?id=${ids.completed}`, "claims", "webhooks", `deliveries?id=${ids.hook}`, `inbox?id=${ids.hook}`, "requests", "keys",
      "deposit-accounts", `deposit-account?id=${ids.account}`, `deposits?id=${ids.account}`, "payout-balance", "payout-methods", "payouts", `payout?id=${ids.payout}`,
      `claim?id=${ids.claim}`, "qr-orders", `qr-order?id=${ids.qr}`, "settlements", "withdrawals", "topups",
    ];
    // Every logged request opens with its answer, secrets redacted (tokens, the webhook's secret).
    const logged = (await (await fetch(`${API_URL}/dashboard/api/requests`, { headers: { cookie: viewer } })).json()) as Array<{ id: string }>;
    assert.ok(logged.length > 5, "the setup's requests are logged");
    reads.push(...logged.map((r) => `request?id=${r.id}`));
    const before = await settledSnapshot();
    for (const r of reads) {
      const res = await fetch(`${API_URL}/dashboard/api/${r}`, { headers: { cookie: viewer } });
      const text = await res.text();
      assert.equal(res.status, 200, `${r}: ${text.slice(0, 200)}`);
      assert.doesNotMatch(text, /whsec_[A-Za-z0-9+/=]{16}|sk_(test|live)_[0-9A-Za-z]{32}/, `${r} reveals no secret`);
    }
    for (const r of ["refund", "simulate", "fund-sandbox", "transfer", "swap", "send", "rotate-secret", "roll-key", "__proto__", "constructor"]) {
      const res = await fetch(`${API_URL}/dashboard/api/${r}`, { headers: { cookie: viewer } });
      assert.equal(res.status, 404, r);
      assert.equal(((await res.json()) as any).error.code, "route_not_found");
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${API_URL}/dashboard/api/payments`, { method, headers: { cookie: viewer, "content-type": "application/json", origin: API_URL }, body: "{}" });
      assert.equal(res.status, 405, method);
    }
    assert.equal(await snapshot(), before, "reading changed nothing");
  });
});

describe("buyer form posts", () => {
  const press = (txId: string, action: string) =>
    fetch(`${API_URL}/pay/sandbox/${txId}/action`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ action }) });

  test("the sandbox page's buttons: a production payment gets production_key_refused and stays pending; a sandbox one moves", async () => {
    const live = await api("/payments", { key: m.production.secretKey, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email("buyer"), documentId: "GODE561231GR8" } });
    assert.equal(live.status, 200, live.text);
    const refused = await press(live.body.transactionId, "paid");
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /^production_key_refused: /);
    assert.equal((await api(`/payments/${live.body.transactionId}`, { key: m.production.secretKey })).body.status, "pending");

    const sandbox = (await ok(api("/payments", { key: sk, body: { amount: 10, paymentMethodId: "sbx_card" } }), "a sandbox payment")).transactionId;
    const pressed = await press(sandbox, "paid");
    assert.equal(pressed.status, 303);
    assert.equal((await api(`/payments/${sandbox}`, { key: sk })).body.status, "completed");
    assert.equal((await press("tx_unknown_gate", "paid")).status, 404);
  });
});
