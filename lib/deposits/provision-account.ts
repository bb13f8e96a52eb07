// A new deposit account, row first (decisions.md "Money leaves at most once (provider calls)"):
//   1. the row is committed in `provisioning` with no CLABE; the unique index (shop,
//      environment, endUserRef, method) makes concurrent first calls converge on ONE row;
//   2. one request at a time (a lease on the row) asks the provider for the CLABE, with the
//      row's id as the provider's reference, so asking again returns the same CLABE;
//   3. a usable CLABE completes the row (`active`) in a transaction that also binds the
//      Idempotency-Key; an explicit refusal deletes the row (a later call starts over with a
//      new id); anything else (timeout, 5xx, unreadable or unusable answer) leaves the row
//      `provisioning` and answers 502: the next call with the same endUserRef asks again by the
//      same reference, so the end user gets exactly one CLABE.
// Requests that find the lease held wait for its holder's outcome instead of asking too: 50
// concurrent first calls make one provider request. A `provisioning` row is invisible (lists,
// GETs, get-or-create) and cannot be credited (it has no CLABE; receiveDeposit refuses it).
import { setTimeout as delay } from "node:timers/promises";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { presentAccount } from "@/lib/deposits/present";
import { askForClabe, provisioningFailed } from "@/lib/deposits/provision-clabe";
import { inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { applyHeldDeposits } from "@/lib/deposits/held-deposits";
import type { DepositMethod } from "@/lib/deposits/methods";
import type { GetOrCreateInput } from "@/lib/deposits/schema";
import type { DepositAccount } from "@/lib/generated/prisma/client";
import type { Environment } from "@/lib/generated/prisma/enums";

/** The filter every read of usable accounts adds: a row still waiting for its CLABE is not one. */
export const USABLE = { status: { not: "provisioning" as const } };

/**
 * How long one request may ask the provider before another may take over (a crashed holder).
 * Longer than any provider's call timeout (8 s by default), so a live holder is never overtaken.
 */
const LEASE_MS = 30_000;

type Scope = { merchantId: string; shopId: string; environment: Environment; endUserRef: string };
type Created = { created: boolean; account: ReturnType<typeof presentAccount> };

/** The constraint a unique violation hit (Prisma 7 + adapter-pg puts it in the driver error). */
function violatedConstraint(err: unknown): string | null {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { constraint?: string | { index?: string } } }; target?: unknown } };
  if (e?.code !== "P2002") return null;
  const c = e.meta?.driverAdapterError?.cause?.constraint;
  return typeof c === "string" ? c : (c?.index ?? String(e.meta?.target ?? "unknown"));
}

/** Takes the row's lease when nobody holds it (never held, released, or its holder crashed). */
async function claim(id: string): Promise<boolean> {
  const now = new Date();
  const r = await db().depositAccount.updateMany({
    where: { id, status: "provisioning", OR: [{ provisioningUntil: null }, { provisioningUntil: { lt: now } }] },
    data: { provisioningUntil: new Date(now.getTime() + LEASE_MS) },
  });
  return r.count === 1;
}

export async function provisionAccount(scope: Scope, method: DepositMethod, input: GetOrCreateInput): Promise<Created> {
  const key = { shopId: scope.shopId, environment: scope.environment, endUserRef: scope.endUserRef, depositMethodId: method.depositMethodId };
  // ON CONFLICT DO NOTHING on the end-user key: the first call's row wins, later ones find it.
  await db().depositAccount.createMany({
    skipDuplicates: true,
    data: [{
      id: newId("depositAccount"),
      ...scope,
      depositMethodId: method.depositMethodId,
      methodName: method.name,
      clabe: null,
      status: "provisioning",
      currency: method.currency,
      country: method.countryIso3,
      provider: method.provider,
      beneficiaryName: input.name!,
      beneficiaryEmail: input.email ?? null,
      phone: input.phone ?? null,
      documentType: input.documentType ?? null,
      documentId: input.documentId ?? null,
      customerCountry: input.country ? input.country.toUpperCase() : null,
      metadata: input.metadata ?? {},
    }],
  });
  const row = await db().depositAccount.findFirst({ where: key });
  if (!row) throw provisioningFailed(method.provider, "provisioning_refused");
  if (row.status !== "provisioning") return { created: false, account: presentAccount(row) };
  if (await claim(row.id)) return askProvider(row, method);
  return awaitHolder(row.id, method);
}

/** The lease holder's call: the row's own beneficiary (a retry asks exactly what the first call asked). */
async function askProvider(row: DepositAccount, method: DepositMethod): Promise<Created> {
  const answer = await askForClabe(method, { accountId: row.id, endUserRef: row.endUserRef, name: row.beneficiaryName, email: row.beneficiaryEmail }).catch((err: unknown) => ({ kind: "unknown" as const, reason: err instanceof Error ? err.message : "provider_error" }));
  if (answer.kind === "refused") {
    await db().depositAccount.deleteMany({ where: { id: row.id, status: "provisioning" } });
    throw provisioningFailed(method.provider, answer.reason);
  }
  if (answer.kind === "unknown") {
    await release(row.id);
    throw provisioningFailed(method.provider, answer.reason);
  }
  try {
    const account = await inBoundTransaction(async (tx) => {
      const done = await tx.depositAccount.updateMany({
        where: { id: row.id, status: "provisioning" },
        data: { status: "active", clabe: answer.clabe, bank: answer.bank, providerRef: answer.providerRef, provisioningUntil: null },
      });
      // Completed meanwhile by a request that took over an expired lease: its answer stands.
      return done.count === 1 ? tx.depositAccount.findUniqueOrThrow({ where: { id: row.id } }) : null;
    }, () => ({ resource: "deposit_account", id: row.id }));
    if (account) {
      // Deposits that arrived while it was provisioning (its CLABE unknown to us until now).
      await applyHeldDeposits(account.id).catch(() => 0);
      return { created: true, account: presentAccount(account) };
    }
    const other = await db().depositAccount.findUnique({ where: { id: row.id } });
    if (other && other.status !== "provisioning") return { created: false, account: presentAccount(other) };
    throw provisioningFailed(method.provider, "provisioning_unconfirmed");
  } catch (err) {
    // A CLABE that already belongs to another account is not usable; the provider holds an
    // account under our reference, so the row stays and a retry asks again by it.
    if (violatedConstraint(err) === "deposit_accounts_clabe_key") {
      await release(row.id);
      throw provisioningFailed(method.provider, "duplicate_clabe");
    }
    throw err;
  }
}

async function release(id: string) {
  await db().depositAccount.updateMany({ where: { id, status: "provisioning" }, data: { provisioningUntil: null } });
}

/**
 * Another request holds the lease: wait for its outcome (the row completed, deleted on a
 * refusal, or released on an unknown answer) rather than ask the provider a second time. Only a
 * holder that vanished (lease run out) is taken over.
 */
async function awaitHolder(id: string, method: DepositMethod): Promise<Created> {
  const deadline = Date.now() + LEASE_MS + 1_000;
  for (let pause = 20; Date.now() < deadline; pause = Math.min(pause * 2, 250)) {
    await delay(pause);
    const row = await db().depositAccount.findUnique({ where: { id } });
    if (!row) throw provisioningFailed(method.provider, "provisioning_refused");
    if (row.status !== "provisioning") return { created: false, account: presentAccount(row) };
    if (row.provisioningUntil === null) throw provisioningFailed(method.provider, "provisioning_unconfirmed");
    if (row.provisioningUntil.getTime() < Date.now() && (await claim(id))) return askProvider(row, method);
  }
  throw provisioningFailed(method.provider, "provisioning_unconfirmed");
}
