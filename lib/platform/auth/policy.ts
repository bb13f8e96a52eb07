// Who may do what, in one table, for every caller: an API credential (by key kind), a dashboard
// user (by role), or a buyer holding a public token (checkout session, sandbox payment page).
// Every entry point names one permission and passes through the gate (lib/platform/auth/gate.ts), which
// asks `authorize` here; nothing else decides. Pages use `allows` only to hide what would be
// refused anyway.
import { AppError, type ErrorCode } from "@/lib/platform/errors";
import type { KeyKind } from "@/lib/platform/auth/keys";
import type { DashboardRole, Environment } from "@/lib/generated/prisma/enums";

/** Who is acting. Keys have no role: a secret key is the merchant's own integration. */
export type Actor =
  | { kind: "key"; keyKind: KeyKind }
  /** `twoFactorPending`: the role must use two-factor sign-in here and this session gave no second factor. */
  | { kind: "user"; userId: string; email: string; role: DashboardRole; twoFactorPending?: boolean }
  | { kind: "buyer" };

export type Rule = {
  /** What the permission covers (messages, docs). */
  label: string;
  /** Key kinds of the API that may act. */
  keys: readonly KeyKind[];
  /** Dashboard roles that may act. */
  roles: readonly DashboardRole[];
  /** A buyer holding the page's token may act (sandbox buttons, the checkout pick). */
  buyer?: true;
  /** Only these environments; elsewhere the answer is `outside` (the contract's code per endpoint). */
  environments?: readonly Environment[];
  outside?: ErrorCode;
  /** Moves money or mints a secret: a viewer never has it (checked by lib/platform/auth/policy.test.ts). */
  money?: true;
};

export const ROLES = ["owner", "developer", "viewer"] as const satisfies readonly DashboardRole[];
const EVERYONE = ROLES;
const STAFF = ["owner", "developer"] as const satisfies readonly DashboardRole[];
const SECRET = ["secret"] as const satisfies readonly KeyKind[];
const SANDBOX = ["sandbox"] as const satisfies readonly Environment[];

export const POLICY = {
  identify: { label: "Identify the credential and read the public catalog", keys: ["secret", "publishable"], roles: EVERYONE },
  read: { label: "Read the merchant's data: payments, claims, balances, webhooks, deposits, payouts, keys", keys: SECRET, roles: EVERYONE },
  collect: { label: "Create payments, checkout sessions and deposit accounts", keys: SECRET, roles: STAFF, money: true },
  moveMoney: { label: "Refunds, transfers, swaps (quotes too) and payouts", keys: SECRET, roles: STAFF, money: true },
  simulatePayment: { label: "Simulate a payment's outcome", keys: SECRET, roles: STAFF, buyer: true, environments: SANDBOX, outside: "production_key_refused", money: true },
  simulateDeposit: { label: "Simulate an incoming bank transfer", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  // The dashboard's way to a first CLABE (the API's POST /me/deposit-accounts, under `collect`, is the integration's in both environments).
  createTestDepositAccount: { label: "Create a test deposit account from the dashboard (sandbox)", keys: [], roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  fundSandbox: { label: "Add test money to the payout balance", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "fund_sandbox_only", money: true },
  simulatePayout: { label: "Simulate a payout's outcome", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "simulate_sandbox_only", money: true },
  manageSettlements: { label: "Set where settlements and withdrawals are sent (the settlement destination)", keys: SECRET, roles: STAFF, money: true },
  settleNow: { label: "Settle pending funds now (sandbox)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  registerQrSandbox: { label: "Register the shop for QR charges (sandbox)", keys: [], roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  runSettlement: { label: "Run the settlement batch now (sandbox)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  simulateCrypto: { label: "Simulate a settlement's, withdrawal's or top-up's outcome", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  // Authorize, reject or cancel (as the payer) a recurring PIX mandate: what the payer's bank does in production.
  simulateMandate: { label: "Simulate a payer's answer to a recurring PIX mandate (sandbox)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  simulateDispute: { label: "Decide a chargeback's outcome (sandbox)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  respondToDisputes: { label: "Answer chargebacks: submit evidence, accept the loss", keys: SECRET, roles: STAFF, money: true },
  manageWebhooks: { label: "Change webhook subscriptions and replay deliveries", keys: SECRET, roles: STAFF, money: true },
  sendTestEvent: { label: "Send a test event to a webhook subscription (sandbox)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  seeSecrets: { label: "Mint and see secrets once: webhook signing secrets, rolled secret keys", keys: SECRET, roles: STAFF, money: true },
  payCheckout: { label: "A buyer's pick of a payment method on a checkout session", keys: [], roles: [], buyer: true },
  manageTeam: { label: "Invite and remove dashboard users, change their roles", keys: [], roles: ["owner"] },
  seeShops: { label: "See the merchant's shops, their keys and payment methods", keys: [], roles: ["owner"] },
  readSecurityLog: { label: "Read the merchant's security log", keys: [], roles: ["owner"] },
  enrollTwoFactor: { label: "Set up one's own two-factor sign-in", keys: [], roles: EVERYONE },
  listenWebhooks: { label: "Forward sandbox webhooks to a local machine (the SDK's listen command)", keys: SECRET, roles: STAFF, environments: SANDBOX, outside: "production_key_refused", money: true },
  // The shop's plan decides what its card sales cost it (the fee per count) or its buyers: the owner's decision, as routing is.
  manageInstallments: { label: "Change a shop's card installment plans", keys: [], roles: ["owner"], money: true },
  manageRouting: { label: "Change the shop's payment routing rules (provider order, volume split, success-rate routing)", keys: SECRET, roles: ["owner"], money: true },
  // Routes test payments through rules being edited, to simulated providers, writing nothing (lib/routing/try-rules.ts).
  tryRouting: { label: "Try routing rules on simulated test payments (sandbox)", keys: [], roles: STAFF, environments: SANDBOX, outside: "production_key_refused" },
  sandboxFixture: { label: "Test fixtures of the foundation (sandbox only)", keys: SECRET, roles: [], environments: SANDBOX, outside: "production_key_refused" },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof POLICY;

export const PERMISSIONS = Object.keys(POLICY) as Permission[];

export function ruleOf(permission: Permission): Rule {
  return POLICY[permission];
}

function actorAllowed(actor: Actor, rule: Rule): boolean {
  if (actor.kind === "key") return rule.keys.includes(actor.keyKind);
  if (actor.kind === "user") return rule.roles.includes(actor.role);
  return rule.buyer === true;
}

/** Whether the actor may, in this environment. For hiding only; entry points call `authorize`. */
export function allows(who: { actor: Actor; environment: Environment }, permission: Permission): boolean {
  const rule = ruleOf(permission);
  return actorAllowed(who.actor, rule) && (!rule.environments || rule.environments.includes(who.environment));
}

/** A dashboard role's permission, whatever the environment (what the role table used to answer). */
export function can(role: DashboardRole, permission: Permission): boolean {
  return ruleOf(permission).roles.includes(role);
}

/**
 * The one decision: the actor first (an integrator fixes the key before the environment), then
 * the environment, answered with the permission's own code.
 */
export function authorize(who: { actor: Actor; environment: Environment }, permission: Permission): void {
  const rule = ruleOf(permission);
  const { actor } = who;
  // Until a user who must use two-factor sign-in has enrolled, enrolling is all they may do.
  if (actor.kind === "user" && actor.twoFactorPending && permission !== "enrollTwoFactor") {
    throw new AppError("two_factor_required", "Set up two-factor sign-in first.");
  }
  if (!actorAllowed(actor, rule)) {
    if (actor.kind === "key") {
      throw new AppError("key_kind_not_allowed", rule.keys.length ? "This operation needs a secret key (sk_*) or a token issued for one; a publishable key was sent." : "This operation is not open to API keys.");
    }
    if (actor.kind === "user") throw new AppError("forbidden", `Your role (${actor.role}) cannot do this: ${rule.label.toLowerCase()}.`);
    throw new AppError("forbidden", "This action is not open to buyers.");
  }
  if (rule.environments && !rule.environments.includes(who.environment)) {
    const how = actor.kind === "key" ? "use a sk_test_ credential" : actor.kind === "user" ? "switch to sandbox" : "this is not a sandbox payment";
    throw new AppError(rule.outside ?? "forbidden", `${rule.label} exists in the ${rule.environments.join(" and ")} only; ${how}.`);
  }
}
