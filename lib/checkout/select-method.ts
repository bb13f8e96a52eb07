// POST /checkout/sessions/{token}/select (and the hosted page's form): the buyer's pick creates
// the session's one transaction. A select first claims the session for a transaction id it
// generates (a lease, so a crashed select frees it), runs the cascade, and completes the session
// in the same database transaction that inserts the payment. Concurrent selects wait for the
// claim holder's outcome: they see the completed session (409 with its transaction) or, if the
// pick was rejected, take the session themselves. A session can never create two transactions.
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { checkoutUrlFor } from "@/lib/payments/present";
import { createPayment } from "@/lib/payments/create-payment";
import { findSession, isExpired, sessionNotFound } from "@/lib/checkout/get-session";
import type { SelectMethodInput } from "@/lib/checkout/schema";
import { gate } from "@/lib/platform/auth/gate";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

const CLAIM_MS = 60_000;
const WAIT_MS = 20_000;

export function alreadyCompleted(existingTxId: string | null): AppError {
  return new AppError("checkout_session_already_completed", "This checkout session already created its payment. Create a new session to use another method.", {
    details: { existingTxId },
  });
}

async function claim(token: string, txId: string): Promise<CheckoutSession | null> {
  const now = new Date();
  const { count } = await db().checkoutSession.updateMany({
    where: { id: token, status: "awaiting_method", expiresAt: { gt: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    data: { claimTxId: txId, claimedUntil: new Date(now.getTime() + CLAIM_MS) },
  });
  return count === 1 ? db().checkoutSession.findUnique({ where: { id: token } }) : null;
}

/** The session acts for its merchant and shop, as their secret key would; the gate decides. */
function sessionAuth(s: CheckoutSession): Promise<AuthContext> {
  return gate({ kind: "checkoutSession", session: s }, "payCheckout");
}

export async function selectCheckoutMethod(token: string, input: SelectMethodInput, opts: { requestIp: string | null }) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const txId = newId("transaction");
    const session = await claim(token, txId);
    if (session) return complete(session, txId, input, opts.requestIp);
    const s = await findSession(token);
    if (!s || isExpired(s)) throw sessionNotFound();
    if (s.status === "completed") throw alreadyCompleted(s.completedTxId);
    // Another select holds the claim: wait for its outcome.
    if (Date.now() > deadline) throw alreadyCompleted(s.claimTxId);
    await sleep(100);
  }
}

async function complete(s: CheckoutSession, txId: string, input: SelectMethodInput, requestIp: string | null) {
  try {
    const auth = await sessionAuth(s);
    const c = input.customer ?? {};
    await createPayment(
      auth,
      {
        amount: toMajor(s.amountUsd, "USD"),
        paymentMethodId: input.paymentMethodId,
        installments: input.installments,
        country: s.country ?? undefined,
        userName: c.fullName ?? `${s.firstName} ${s.lastName}`,
        userEmail: c.email ?? s.email,
        documentId: c.documentId ?? s.documentId ?? undefined,
        userPhone: c.phone ?? s.phone,
        userIp: s.customerIp ?? requestIp ?? undefined,
        merchantOrderId: s.merchantOrderId ?? undefined,
        returnUrl: s.returnUrl ?? undefined,
        hostedCheckout: true,
        expiresInMinutes: s.expiresInMinutes ?? undefined,
      },
      {
        requireBuyer: true,
        id: txId,
        presentment: { usd: s.amountUsd, currency: s.inputCurrency ?? "USD", inputMinor: s.inputAmount ?? s.amountUsd },
        inTransaction: async (tx) => {
          const { count } = await tx.checkoutSession.updateMany({
            where: { id: s.id, claimTxId: txId, status: "awaiting_method" },
            // The document was kept only to reach the provider (4.4: not persisted).
            data: { status: "completed", completedTxId: txId, paymentMethodId: input.paymentMethodId, completedAt: new Date(), claimedUntil: null, documentId: null },
          });
          if (count !== 1) throw alreadyCompleted(null); // the claim lapsed and another select took over
        },
      },
    );
  } catch (err) {
    // A rejected pick leaves the session open for another method.
    await db().checkoutSession.updateMany({ where: { id: s.id, claimTxId: txId, status: "awaiting_method" }, data: { claimTxId: null, claimedUntil: null } });
    throw err;
  }
  return { sessionId: s.id, transactionId: txId, checkoutUrl: checkoutUrlFor({ id: txId, returnUrl: s.returnUrl }), status: "pending" as const };
}
