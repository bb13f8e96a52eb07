// POST /me/deposit-accounts: get-or-create keyed on endUserRef (API reference 4.6).
// An end user has at most one account per deposit method on a shop; the unique index
// (shop, environment, endUserRef, method) decides concurrent calls. The row is committed in
// `provisioning` (no CLABE) BEFORE the provider is asked (decisions.md "Money leaves at most
// once"), see lib/deposits/provision-account.ts; a `provisioning` row is never returned here.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { presentAccount } from "@/lib/deposits/present";
import { presentDepositMethod, shopDepositMethods, type DepositMethod } from "@/lib/deposits/methods";
import { provisionAccount, USABLE } from "@/lib/deposits/provision-account";
import { requireShop, type ShopContext } from "@/lib/deposits/scope";
import type { GetOrCreateInput } from "@/lib/deposits/schema";

function methodsDetail(methods: DepositMethod[]) {
  return { depositMethods: methods.map(presentDepositMethod) };
}

function requiredMissing(input: GetOrCreateInput, creating: DepositMethod | null): string[] {
  const missing: string[] = [];
  if (!input.endUserRef) missing.push("endUserRef");
  if (!input.name) missing.push("name");
  if (creating) {
    for (const r of creating.requires) if (!input[r]) missing.push(r);
  }
  return missing;
}

function missingError(missing: string[]) {
  return new AppError("invalid_request", `Missing required field${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}. Nothing was created.`, {
    param: missing[0],
    details: { required: missing },
  });
}

export async function getOrCreateDepositAccount(auth: ShopContext, input: GetOrCreateInput): Promise<{ created: boolean; account: ReturnType<typeof presentAccount> }> {
  const shop = requireShop(auth);
  const always = requiredMissing(input, null);
  if (always.length) throw missingError(always);
  const endUserRef = input.endUserRef!;
  const scope = { merchantId: auth.merchant.id, shopId: shop.id, environment: auth.environment, endUserRef };

  // An existing account wins over every rule about creating one (and is returned even when
  // disabled, or when its method is no longer offered: 3.4).
  const existing = await db().depositAccount.findMany({ where: { ...scope, ...USABLE, ...(input.depositMethodId ? { depositMethodId: input.depositMethodId } : {}) }, orderBy: { createdAt: "asc" }, take: 2 });
  if (existing.length > 1) {
    const all = await db().depositAccount.findMany({ where: { ...scope, ...USABLE }, select: { id: true, depositMethodId: true } });
    throw new AppError("deposit_account_conflict", `Several deposit accounts exist for endUserRef ${endUserRef}; send depositMethodId to pick one. None was created.`, {
      param: "depositMethodId",
      details: { endUserRef, accounts: all.map((a) => ({ id: a.id, depositMethodId: a.depositMethodId })) },
    });
  }
  if (existing.length === 1) return { created: false, account: presentAccount(existing[0]!) };

  const methods = await shopDepositMethods(shop.id, auth.environment);
  if (methods.length === 0) throw new AppError("deposit_accounts_unavailable", "Deposit accounts are not enabled for this shop (GET /me/deposit-methods is empty).", { details: methodsDetail(methods) });
  let method: DepositMethod;
  if (input.depositMethodId) {
    const m = methods.find((x) => x.depositMethodId === input.depositMethodId);
    if (!m) throw new AppError("deposit_method_unavailable", `Deposit method ${input.depositMethodId} is not enabled for this shop.`, { param: "depositMethodId", details: methodsDetail(methods) });
    method = m;
  } else if (methods.length > 1) {
    throw new AppError("deposit_method_required", "The shop offers several deposit methods: send depositMethodId.", { param: "depositMethodId", details: methodsDetail(methods) });
  } else {
    method = methods[0]!;
  }
  const missing = requiredMissing(input, method);
  if (missing.length) throw missingError(missing);

  return provisionAccount(scope, method, input);
}
