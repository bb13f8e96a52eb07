// Reading a session by its token. Expired sessions (24 h) read as absent whatever the expiry
// job has done so far: the TTL is enforced at lookup, the job only tidies.
import { sqlShared } from "@/lib/platform/shared-reads";
import { AppError } from "@/lib/platform/errors";
import { presentSession } from "@/lib/checkout/present";
import { SESSION_TOKEN } from "@/lib/checkout/schema";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

export function isExpired(s: Pick<CheckoutSession, "status" | "expiresAt">, now = new Date()): boolean {
  return s.status === "expired" || s.expiresAt.getTime() <= now.getTime();
}

// Every view of a buyer page reads its session: on the lean `sql` path (Prisma's runtime was most
// of a selector view's remaining CPU under load), and shared (`sqlShared`): views of different
// sessions arriving together go as one statement. Alone, the statement's socket write (which also
// wakes a PostgreSQL backend) was 14 % of a view's CPU. Named columns, mapped to Prisma's row type.
const SESSION = `SELECT id, merchant_id, shop_id, environment::text AS environment, status::text AS status, amount_usd, input_currency,
  input_amount, country, first_name, last_name, email, phone, document_id, customer_ip, merchant_order_id, return_url,
  expires_in_minutes, claim_tx_id, claimed_until, completed_tx_id, payment_method_id, allow_retry, previous_session_id,
  next_session_id, expires_at, created_at, completed_at FROM checkout_sessions WHERE id = $1`;

/** The row, expired or not; null for a token that is malformed or unknown. */
export async function findSession(token: string): Promise<CheckoutSession | null> {
  if (!SESSION_TOKEN.test(token)) return null;
  // By primary key: no plan to fear, so on the main pool, not behind the lists' generic one.
  const [r] = await sqlShared<Record<string, any>>(SESSION, [token], { genericPlan: false });
  if (!r) return null;
  return {
    id: r.id,
    merchantId: r.merchant_id,
    shopId: r.shop_id,
    environment: r.environment,
    status: r.status,
    amountUsd: BigInt(r.amount_usd),
    inputCurrency: r.input_currency,
    inputAmount: r.input_amount === null ? null : BigInt(r.input_amount),
    country: r.country,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    documentId: r.document_id,
    customerIp: r.customer_ip,
    merchantOrderId: r.merchant_order_id,
    returnUrl: r.return_url,
    expiresInMinutes: r.expires_in_minutes,
    claimTxId: r.claim_tx_id,
    claimedUntil: r.claimed_until,
    completedTxId: r.completed_tx_id,
    paymentMethodId: r.payment_method_id,
    allowRetry: r.allow_retry,
    previousSessionId: r.previous_session_id,
    nextSessionId: r.next_session_id,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  };
}

export function sessionNotFound(): AppError {
  return new AppError("checkout_session_not_found", "No checkout session with this token, or it has expired (sessions last 24 hours). Create a new one.");
}

export async function getCheckoutSession(token: string) {
  const s = await findSession(token);
  if (!s || isExpired(s)) throw sessionNotFound();
  return presentSession(s);
}
