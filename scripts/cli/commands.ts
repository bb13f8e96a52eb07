// The operator CLI's commands (scripts/cli.ts opens the database and calls runCommand): each
// parses its flags and calls the same lib/ use case the API or the dashboard uses.
import { parseArgs } from "node:util";

const USAGE = `commands: merchant:create, merchant:suspend, shop:create, shop:suspend, keys:roll, keys:merchant-wide, shop:methods, shop:installments, shop:deposit-methods, deposit-account:disable, deposit:held, fx:set, user:create, user:password, settlement:pay, settlement:fail, qr:register, qr:suspend, qr:reactivate, topup:addresses, ledger:verify, decline:list, decline:set, decline:delete, claims:attention, claims:retry, routing:evaluate`;

type KeyPair = { publishableKey: string; secretKey: string };
/** A new shop's two key pairs as merchant:create and shop:create print them. */
const keyLines = (k: { sandbox: KeyPair; production: KeyPair }) => [
  `sandbox     publishable ${k.sandbox.publishableKey}`,
  `            secret      ${k.sandbox.secretKey}`,
  `production  publishable ${k.production.publishableKey}`,
  `            secret      ${k.production.secretKey}`,
];
const KEEP_SECRETS = "Secret keys are shown only now: store them safely.";

/** Runs one command; `print` gets its human text and its JSON result. Returns the exit code. */
export async function runCommand(argv: string[], print: (human: string, data: unknown, json: boolean) => void): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      "shop-name": { type: "string" },
      tier: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      industry: { type: "string" },
      "trust-score": { type: "string" },
      "time-zone": { type: "string" },
      id: { type: "string" },
      city: { type: "string" },
      network: { type: "string" },
      address: { type: "string", multiple: true },
      mcc: { type: "string" },
      "tx-hash": { type: "string" },
      reason: { type: "string" },
      merchant: { type: "string" },
      shop: { type: "string" },
      account: { type: "string" },
      env: { type: "string" },
      reactivate: { type: "boolean", default: false },
      enable: { type: "string", multiple: true },
      disable: { type: "string", multiple: true },
      currency: { type: "string" },
      rate: { type: "string" },
      role: { type: "string" },
      json: { type: "boolean", default: false },
      full: { type: "boolean", default: false },
      provider: { type: "string" },
      code: { type: "string" },
      pattern: { type: "string" },
      "maps-to": { type: "string" },
      decision: { type: "string" },
      priority: { type: "string" },
      method: { type: "string" },
      counts: { type: "string" },
      min: { type: "string" },
      "paid-by": { type: "string" },
      rates: { type: "string" },
      reset: { type: "boolean", default: false },
      since: { type: "string" },
      rules: { type: "string" },
    },
    strict: true,
  });
  const out = (human: string, data: unknown) => print(human, data, values.json);
  const env = () => {
    if (values.env !== "sandbox" && values.env !== "production") throw new Error("--env must be sandbox or production");
    return values.env;
  };
  const need = (v: string | undefined, flag: string) => {
    if (!v) throw new Error(`${flag} is required`);
    return v;
  };
  switch (command) {
    case "merchant:create": {
      const { createMerchant } = await import("@/lib/merchants/create-merchant");
      const tier = values.tier ?? "standard";
      if (!["starter", "standard", "premium"].includes(tier)) throw new Error("--tier must be starter, standard or premium");
      const created = await createMerchant({
        name: need(values.name, "--name"),
        shopName: values["shop-name"],
        email: values.email,
        password: values.password,
        industry: values.industry,
        tier: tier as "starter" | "standard" | "premium",
        trustScore: values["trust-score"] ? Number(values["trust-score"]) : undefined,
        timeZone: values["time-zone"],
      });
      out(
        [`merchant ${created.merchantId}  shop ${created.shopId}`, ...keyLines(created), ...(values.email && values.password ? [`dashboard owner: ${values.email}`] : []), KEEP_SECRETS].join("\n"),
        created,
      );
      return 0;
    }
    case "merchant:suspend": {
      const { setMerchantStatus } = await import("@/lib/merchants/set-status");
      const r = await setMerchantStatus(need(values.merchant, "--merchant"), values.reactivate ? "active" : "suspended");
      out(`merchant ${r.id} is now ${r.status}`, r);
      return 0;
    }
    case "shop:create": {
      const { createShop } = await import("@/lib/merchants/create-shop");
      const created = await createShop({ merchantId: need(values.merchant, "--merchant"), name: need(values.name, "--name") });
      out(
        [`shop ${created.shopId} (${created.name}) of merchant ${created.merchantId}`, ...keyLines(created), KEEP_SECRETS].join("\n"),
        created,
      );
      return 0;
    }
    case "shop:suspend": {
      const { setShopStatus } = await import("@/lib/merchants/set-status");
      const r = await setShopStatus(need(values.shop, "--shop"), values.reactivate ? "active" : "suspended");
      out(`shop ${r.id} is now ${r.status}`, r);
      return 0;
    }
    case "keys:roll": {
      const { rollSecretKey } = await import("@/lib/merchants/manage-keys");
      const r = await rollSecretKey({ shopId: need(values.shop, "--shop"), environment: env() });
      out(`new secret key (the old one no longer works): ${r.secretKey}`, r);
      return 0;
    }
    case "keys:merchant-wide": {
      const { createMerchantWideKeys } = await import("@/lib/merchants/manage-keys");
      const r = await createMerchantWideKeys({ merchantId: need(values.merchant, "--merchant"), environment: env() });
      out(`merchant-wide keys: ${r.publishableKey} / ${r.secretKey}`, r);
      return 0;
    }
    case "shop:methods": {
      const { setShopPaymentMethods } = await import("@/lib/catalog/set-shop-methods");
      const r = await setShopPaymentMethods(need(values.shop, "--shop"), { enable: values.enable ?? [], disable: values.disable ?? [] });
      out(`shop ${r.shopId}: disabled ${r.disabled.join(", ") || "(none)"}`, r);
      return 0;
    }
    case "shop:installments": {
      const { shopInstallments } = await import("./installments.ts");
      const r = await shopInstallments(values);
      out(r.human, r.plan);
      return 0;
    }
    case "shop:deposit-methods": {
      const { setShopDepositMethods } = await import("@/lib/deposits/set-shop-deposit-methods");
      const r = await setShopDepositMethods(need(values.shop, "--shop"), { enable: values.enable ?? [], disable: values.disable ?? [] });
      out(`shop ${r.shopId}: deposit methods ${r.enabled.join(", ") || "(none)"}`, r);
      return 0;
    }
    case "deposit-account:disable": {
      const { setDepositAccountStatus } = await import("@/lib/deposits/set-account-status");
      const r = await setDepositAccountStatus(need(values.account, "--account"), values.reactivate ? "active" : "disabled");
      out(`deposit account ${r.accountId} (${r.clabe}): ${r.status}`, r);
      return 0;
    }
    case "deposit:held": {
      const { HOLD_REASONS, listHeldDeposits } = await import("@/lib/deposits/held-deposits");
      const reason = values.reason as (typeof HOLD_REASONS)[number] | undefined;
      if (reason !== undefined && !HOLD_REASONS.includes(reason)) throw new Error(`--reason must be one of ${HOLD_REASONS.join(", ")}`);
      const held = await listHeldDeposits({ reason });
      const money = (f: { amount: string; currency: string; minorUnits?: true }) => `${f.amount} ${f.currency}${f.minorUnits ? " (minor units)" : ""}`;
      const lines = held.map((h) => `${h.id} ${h.reason.padEnd(16)} ${h.provider} ${h.clabe} ${h.trackingKey}  notice ${money(h.notice)}${h.pending ? `  pending ${money(h.pending)} (${h.depositId})` : ""}  ${h.receivedAt}`);
      out(lines.join("\n") || "no held deposit notices", { held });
      return 0;
    }
    case "settlement:pay": {
      // Production: the operator records the custody transfer of a closed batch.
      const { markSettlementPaid } = await import("@/lib/settlements/settle-batch");
      const r = await markSettlementPaid(need(values.id, "--id"), need(values["tx-hash"], "--tx-hash"));
      out(`settlement ${r.settlement.id} paid (${r.settlement.netUsd} USD, txHash ${r.settlement.txHash})`, r);
      return 0;
    }
    case "settlement:fail": {
      const { failSettlement } = await import("@/lib/settlements/settle-batch");
      const r = await failSettlement(need(values.id, "--id"), need(values.reason, "--reason"));
      out(`settlement ${r.settlement.id} failed; ${r.settlement.grossUsd} USD back in the available balance`, r);
      return 0;
    }
    case "topup:addresses": {
      const { loadTopupAddresses } = await import("@/lib/topups/topups");
      const network = need(values.network, "--network").toUpperCase();
      if (network !== "TRON" && network !== "ETHEREUM" && network !== "POLYGON") throw new Error("--network must be TRON, ETHEREUM or POLYGON");
      const r = await loadTopupAddresses(network, values.address ?? []);
      out(`${network} deposit addresses: ${r.added} added, ${r.skipped} already in the pool`, r);
      return 0;
    }
    case "qr:register": {
      const { registerEstablishment } = await import("@/lib/qr/establishments");
      const e = await registerEstablishment({ shopId: need(values.shop, "--shop"), name: need(values.name, "--name"), city: need(values.city, "--city"), mcc: need(values.mcc, "--mcc") });
      out(`QR establishment ${e.id} for shop ${e.shopId}: ${e.name}, ${e.city} (MCC ${e.mcc}), ${e.status}`, e);
      return 0;
    }
    case "qr:suspend":
    case "qr:reactivate": {
      const { setEstablishmentStatus } = await import("@/lib/qr/establishments");
      const e = await setEstablishmentStatus(need(values.shop, "--shop"), values.reactivate || command === "qr:reactivate" ? "active" : "suspended");
      out(`QR establishment ${e.id} of shop ${e.shopId}: ${e.status}`, e);
      return 0;
    }
    case "ledger:verify": {
      // Every ledger (or one merchant's) now, whether or not it changed: from each checkpoint,
      // or with --full from the first entry (the checkpoints are rebuilt from the entries).
      const { verifyLedgers } = await import("@/lib/ledger/verify-ledgers");
      const { db } = await import("@/lib/platform/db");
      const started = performance.now();
      const ledgers = await db().ledgerBalance.findMany({
        where: { ...(values.merchant ? { merchantId: values.merchant } : {}), ...(values.env ? { environment: env() } : {}) },
        distinct: ["merchantId", "environment"],
        select: { merchantId: true, environment: true },
      });
      const checks = [];
      for (const l of ledgers) checks.push(...(await verifyLedgers({ merchantId: l.merchantId, environment: l.environment, force: true, full: values.full, limit: 1 })));
      if (checks.length < ledgers.length) console.error(`${ledgers.length - checks.length} ledger(s) skipped: the verification job holds them right now; run again`);
      const warned = checks.filter((c) => c.warnings.length > 0);
      for (const c of warned) for (const w of c.warnings) console.error(`${c.merchantId} ${c.environment}: ${w.code}: ${w.message}`);
      const entries = checks.reduce((n, c) => n + c.entries, 0);
      out(`${checks.length} ledger(s) verified${values.full ? " in full" : ""}: ${entries} entries read in ${Math.round(performance.now() - started)} ms; ${warned.length} with warnings`, { ledgers: checks.length, full: values.full, entries, warnings: warned.map((c) => ({ merchantId: c.merchantId, environment: c.environment, warnings: c.warnings })) });
      return warned.length ? 1 : 0;
    }
    case "fx:set": {
      const { setRate } = await import("@/lib/money/rates");
      const { parseRate } = await import("@/lib/money/fx");
      const currency = need(values.currency, "--currency").toUpperCase();
      parseRate(need(values.rate, "--rate"));
      await setRate(currency, values.rate!, "operator");
      out(`1 USD = ${values.rate} ${currency}`, { currency, rate: values.rate });
      return 0;
    }
    case "user:create": {
      const { createDashboardUser } = await import("@/lib/accounts/users");
      const role = values.role ?? "owner";
      if (role !== "owner" && role !== "developer" && role !== "viewer") throw new Error("--role must be owner, developer or viewer");
      const u = await createDashboardUser({ merchantId: need(values.merchant, "--merchant"), email: need(values.email, "--email"), password: need(values.password, "--password"), role });
      out(`dashboard user ${u.email} (${u.role}) of merchant ${u.merchantId}`, u);
      return 0;
    }
    case "user:password": {
      const { resetDashboardPassword } = await import("@/lib/dashboard/reset-password");
      const u = await resetDashboardPassword(need(values.email, "--email"), values.password);
      out(`new password of ${u.email}: ${u.password}   (shown once)`, u);
      return 0;
    }
    case "claims:attention": {
      const { listClaimsNeedingAttention } = await import("@/lib/claims/attention");
      const claims = await listClaimsNeedingAttention();
      out(claims.map((c) => `${c.id} ${c.merchantId} ${c.environment} ${c.amount} ${c.currency} via ${c.provider}: raised ${c.attentionAt}, next try ${c.nextTryAt ?? "none"}; ${c.lastError ?? "outcome unknown"}`).join("\n") || "no claims need attention", { claims });
      return 0;
    }
    case "claims:retry": {
      const { retryClaimStepNow } = await import("@/lib/claims/attention");
      const id = need(values.id, "--id");
      if (!(await retryClaimStepNow(id))) throw new Error(`${id} has no refund step waiting`);
      out(`${id}: its refund step runs at the job's next tick`, { id, due: true });
      return 0;
    }
    case "routing:evaluate": {
      const { routingEvaluate } = await import("../routing-evaluate.ts");
      return routingEvaluate({ since: values.since, rules: values.rules, merchant: values.merchant, shop: values.shop, env: values.env }, out);
    }
    case "decline:list": {
      const { listDeclineRules } = await import("@/lib/routing/decline-table");
      const rows = await listDeclineRules(values.provider);
      out(rows.map((r) => `${r.provider.padEnd(11)} ${r.matchKind.padEnd(7)} ${r.match.padEnd(44)} -> ${r.declineCode.padEnd(30)} ${r.decision} (${r.priority})${r.source ? `  ${r.source}` : ""}`).join("\n") || "no rows", { rules: rows });
      return 0;
    }
    case "decline:set": {
      const { setDeclineRule } = await import("@/lib/routing/decline-table");
      const priority = values.priority === undefined ? undefined : Number(values.priority);
      if (priority !== undefined && !Number.isInteger(priority)) throw new Error("--priority must be an integer");
      const r = await setDeclineRule({ provider: need(values.provider, "--provider"), code: values.code, pattern: values.pattern, declineCode: need(values["maps-to"], "--maps-to"), decision: values.decision, priority });
      out(`${r.provider} ${r.matchKind} ${r.match} -> ${r.declineCode} (${r.decision})`, r);
      return 0;
    }
    case "decline:delete": {
      const { deleteDeclineRule } = await import("@/lib/routing/decline-table");
      const r = await deleteDeclineRule({ provider: need(values.provider, "--provider"), code: values.code, pattern: values.pattern });
      out(`${r.deleted} row(s) deleted`, r);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}
