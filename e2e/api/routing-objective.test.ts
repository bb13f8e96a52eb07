// A routing rule's objective over real HTTP (issue 45): PUT /me/routing takes `objective`
// (approval, the default, or net_revenue) on a success-rate rule, answers it back and keeps it in
// the version; on another strategy, or an unknown word, 400 naming the field.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

let key: string;
before(async () => {
  key = (await newMerchant()).production.secretKey;
});
after(() => db().$disconnect());

const providers = [{ provider: "pagosur" }, { provider: "andespay" }, { provider: "rapidpay" }];

test("a success-rate rule for net revenue is kept and answered back; a rule without one reads as before (no objective: approval)", async () => {
  const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1003", strategy: "success_rate", objective: "net_revenue", providers }, { paymentMethodId: "1005", strategy: "success_rate", providers: [{ provider: "andespay" }] }] } });
  assert.equal(put.status, 200, put.text);
  const got = await api("/me/routing", { key });
  assert.equal(got.body.version, put.body.version);
  assert.equal(got.body.rules[0].objective, "net_revenue");
  assert.equal("objective" in got.body.rules[1], false);
  // A payment under it routes as success-rate does (its reason), the fee table deciding among equals.
  const pay = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: "objective@example.com", documentId: "GODE561231GR8" } });
  assert.ok([200, 402, 422].includes(pay.status), pay.text);
});

test("an objective on a priority rule, or an unknown one: 400 naming rules[i].objective", async () => {
  const priority = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1003", strategy: "priority", objective: "net_revenue", providers }] } });
  assert.equal(priority.status, 400, priority.text);
  assert.equal(priority.body.error.code, "invalid_request");
  assert.equal(priority.body.error.param, "rules[0].objective");
  const unknown = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1003", strategy: "success_rate", objective: "profit", providers }] } });
  assert.equal(unknown.status, 400, unknown.text);
  assert.match(unknown.body.error.param ?? "", /rules\[0\]\.objective|rules/);
});
