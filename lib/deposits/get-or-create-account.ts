// POST /me/deposit-accounts: get-or-create keyed on endUserRef (API reference 4.6).
// An end user has at most one account per deposit method on a shop; the unique index
// (shop, environment, endUserRef, method) decides concurrent calls: the loser of the race
// reads the winner's account and answers created: false.
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { presentAccount } from "@/lib/deposits/present";
import { presentDepositMethod, shopDepositMethods, type DepositMethod } from "@/lib/deposits/methods";
import { provisionClabe, provisioningFailed } from "@/lib/deposits/provision-clabe";
import { inBoundTransaction } from "@/lib/http/idempotency";
import { requireShop, type ShopContext } from "@/lib/deposits/scope";
import type { GetOrCreateInput } from "@/lib/deposits/schema";
import type { DepositAccount } from "@/lib/generated/prisma/client";

/** The constraint a unique violation hit (Prisma 7 + adapter-pg puts it in the driver error). */
function violatedConstraint(err: unknown): string | null {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { constraint?: string | { index?: string } } }; target?: unknown } };
  if (e?.code !== "P2002") return null;
  const c = e.meta?.driverAdapterError?.cause?.constraint;
  return typeof c === "string" ? c : (c?.index ?? String(e.meta?.target ?? "unknown"));
}

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
  const existing = await db().depositAccount.findMany({ where: { ...scope, ...(input.depositMethodId ? { depositMethodId: input.depositMethodId } : {}) }, orderBy: { createdAt: "asc" }, take: 2 });
  if (existing.length > 1) {
    const all = await db().depositAccount.findMany({ where: scope, select: { id: true, depositMethodId: true } });
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

  const id = newId("depositAccount");
  const provisioned = await provisionClabe(method, { accountId: id, endUserRef, name: input.name!, email: input.email ?? null });
  try {
    const account = await inBoundTransaction((tx) => tx.depositAccount.create({
      data: {
        id,
        ...scope,
        depositMethodId: method.depositMethodId,
        methodName: method.name,
        clabe: provisioned.clabe,
        bank: provisioned.bank,
        currency: method.currency,
        country: method.countryIso3,
        provider: method.provider,
        providerRef: provisioned.providerRef,
        beneficiaryName: input.name!,
        beneficiaryEmail: input.email ?? null,
        phone: input.phone ?? null,
        documentType: input.documentType ?? null,
        documentId: input.documentId ?? null,
        customerCountry: input.country ? input.country.toUpperCase() : null,
        metadata: input.metadata ?? {},
      },
    }), (a) => ({ resource: "deposit_account", id: a.id }));
    return { created: true, account: presentAccount(account) };
  } catch (err) {
    const constraint = violatedConstraint(err);
    if (constraint === "deposit_accounts_end_user_key") {
      const winner: DepositAccount | null = await db().depositAccount.findFirst({ where: { ...scope, depositMethodId: method.depositMethodId } });
      if (winner) return { created: false, account: presentAccount(winner) };
    }
    // A CLABE that already belongs to another account is not usable.
    if (constraint === "deposit_accounts_clabe_key") throw provisioningFailed(method.provider, "duplicate_clabe");
    throw err;
  }
}
