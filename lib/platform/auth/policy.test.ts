// The policy table is the one place that decides who may do what; these tests pin the decisions
// that protect money and the contract's codes, and keep endpoint declarations in step with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AppError } from "@/lib/platform/errors";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { allows, authorize, can, PERMISSIONS, POLICY, ROLES, ruleOf, type Actor, type Permission } from "@/lib/platform/auth/policy";
import type { Environment } from "@/lib/generated/prisma/enums";

const user = (role: (typeof ROLES)[number]): Actor => ({ kind: "user", userId: "u", email: "u@example.test", role });
const key = (keyKind: "secret" | "publishable"): Actor => ({ kind: "key", keyKind });
const BUYER: Actor = { kind: "buyer" };

function refusal(actor: Actor, environment: Environment, permission: Permission): string | null {
  try {
    authorize({ actor, environment }, permission);
    return null;
  } catch (err) {
    assert.ok(err instanceof AppError);
    return err.code;
  }
}

const MONEY = PERMISSIONS.filter((p) => ruleOf(p).money);
const OWNER_ONLY = new Set<string>(["manageRouting", "manageInstallments"]);

test("viewers read only; owners and developers move money, see secrets once, manage webhooks", () => {
  assert.ok(MONEY.length >= 8);
  for (const p of MONEY) {
    assert.equal(can("viewer", p), false, p);
    assert.equal(refusal(user("viewer"), "sandbox", p), "forbidden", p);
    assert.equal(can("owner", p), true, p);
    // Where payments go, and what a shop's installments cost it, are the owner's decisions alone.
    assert.equal(can("developer", p), !OWNER_ONLY.has(p), p);
  }
  for (const r of ROLES) assert.equal(refusal(user(r), "production", "read"), null);
});

test("a publishable key reaches no money permission; a buyer only the sandbox buttons and the checkout pick", () => {
  for (const p of MONEY) assert.equal(refusal(key("publishable"), "sandbox", p), "key_kind_not_allowed", p);
  assert.equal(refusal(key("publishable"), "production", "identify"), null);
  assert.deepEqual(PERMISSIONS.filter((p) => allows({ actor: BUYER, environment: "sandbox" }, p)), ["simulatePayment", "payCheckout"]);
  assert.equal(refusal(BUYER, "sandbox", "moveMoney"), "forbidden");
});

test("sandbox-only permissions answer the contract's code per endpoint, for keys, users and buyers alike", () => {
  const codes: Partial<Record<Permission, string>> = { simulatePayment: "production_key_refused", simulateDeposit: "production_key_refused", fundSandbox: "fund_sandbox_only", simulatePayout: "simulate_sandbox_only" };
  for (const [p, code] of Object.entries(codes) as Array<[Permission, string]>) {
    for (const actor of [key("secret"), user("owner"), ...(ruleOf(p).buyer ? [BUYER] : [])]) {
      assert.equal(refusal(actor, "production", p), code, `${p} ${actor.kind}`);
      assert.equal(refusal(actor, "sandbox", p), null, `${p} ${actor.kind}`);
    }
  }
  // The routing rule trial is the dashboard's, in the sandbox alone (it writes nothing, but says so by being refused in production).
  assert.equal(refusal(user("owner"), "production", "tryRouting"), "production_key_refused");
  assert.equal(refusal(user("developer"), "sandbox", "tryRouting"), null);
  assert.equal(refusal(key("secret"), "sandbox", "tryRouting"), "key_kind_not_allowed");
  // The actor is judged first: a viewer in production hears about the role, not the environment.
  assert.equal(refusal(user("viewer"), "production", "fundSandbox"), "forbidden");
  for (const [p, rule] of Object.entries(POLICY) as Array<[Permission, (typeof POLICY)[Permission]]>) {
    if ("environments" in rule) assert.ok("outside" in rule && rule.outside, `${p} names the code to answer outside its environments`);
  }
});

test("every endpoint that needs a credential names a permission, and its contract letter (S/A) matches the table", () => {
  for (const e of ENDPOINTS) {
    const name = `${e.method} ${e.path}`;
    if (e.auth === "none") {
      assert.equal(e.permission, undefined, name);
      continue;
    }
    assert.ok(e.permission && PERMISSIONS.includes(e.permission), name);
    const keys = [...ruleOf(e.permission).keys].sort();
    assert.deepEqual(keys, e.auth === "any" ? ["publishable", "secret"] : ["secret"], name);
  }
});

test("every endpoint that changes state names a permission a viewer lacks (the API's side of 'no money for viewers')", () => {
  for (const e of ENDPOINTS) {
    if (e.auth === "none" || e.internal) continue;
    // GET /me/payout/swap creates a quote row, the first step of a swap; GET /webhooks/listen
    // creates the listen inbox once and may show its signing secret. POST /me/routing/evaluate
    // only reads: it is a POST because the candidate rules are a body (nothing is saved).
    const changes = (e.method !== "GET" && e.path !== "/me/routing/evaluate") || e.path === "/me/payout/swap" || e.path === "/webhooks/listen";
    assert.equal(Boolean(ruleOf(e.permission!).money), changes, `${e.method} ${e.path} names ${e.permission}`);
  }
  const named = (method: string, path: string) => ENDPOINTS.find((e) => e.method === method && e.path === path)?.permission;
  assert.equal(named("POST", "/payments/{id}/simulate"), "simulatePayment");
  assert.equal(named("POST", "/me/deposit-accounts/{id}/simulate-deposit"), "simulateDeposit");
  assert.equal(named("POST", "/me/payout/fund-sandbox"), "fundSandbox");
  assert.equal(named("POST", "/me/payout/send/{id}/simulate"), "simulatePayout");
});

test("only owners manage the team and read the security log; no API key does either", () => {
  for (const p of ["manageTeam", "readSecurityLog"] as const) {
    assert.deepEqual([can("owner", p), can("developer", p), can("viewer", p)], [true, false, false]);
    assert.equal(refusal(key("secret"), "sandbox", p), "key_kind_not_allowed");
  }
});

test("a user who must still enroll in two-factor sign-in may enroll and nothing else", () => {
  const pending: Actor = { kind: "user", userId: "u", email: "u@example.test", role: "owner", twoFactorPending: true };
  assert.equal(refusal(pending, "production", "enrollTwoFactor"), null);
  for (const p of PERMISSIONS.filter((p) => p !== "enrollTwoFactor")) assert.equal(refusal(pending, "production", p), "two_factor_required", p);
});
