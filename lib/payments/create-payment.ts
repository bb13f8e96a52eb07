// POST /payments in named stages, each in lib/payments/create/: validate and resolve shop and rail
// (resolve.ts) -> price (price.ts) -> route and cascade (route.ts) -> persist and bind, then
// present (persist.ts). The pending transaction is written with its attempts (and any scheduled
// sandbox outcome).
//
// Production (decisions.md "Money leaves at most once"): our row is committed BEFORE any provider
// is called, and every attempt carries its id as the provider's reference, so no crash can leave
// a live charge that nothing of ours can attach to. The route is written after the cascade. When
// the cascade ends in an error, the row is removed if every provider answered clearly (declined,
// or no instructions): no provider holds a charge. If an attempt's answer was unknown (timeout,
// 5xx, unreadable), that charge may be live: the row stays pending, so a late notice for it
// completes this transaction, once (lib/outcomes/apply-provider-notice.ts matches it by our reference).
// The sandbox calls no provider: its row is written once, after its local cascade.
import { newId } from "@/lib/platform/ids";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";
import { resolveShopAndRail, validateRequest } from "@/lib/payments/create/resolve";
import { pricePayment } from "@/lib/payments/create/price";
import { routePayment } from "@/lib/payments/create/route";
import { paymentRow, persistPayment } from "@/lib/payments/create/persist";

export type CreatePaymentOptions = {
  /** Sandbox-Provider-Behaviour header, already parsed (sandbox only). */
  behaviour?: SandboxBehaviour;
  /** Sandbox-Simulate header value, already validated. */
  simulate?: string;
  /** Hosted checkout and payment links require the buyer's name, email and document. */
  requireBuyer?: boolean;
  requestIp?: string | null;
  /** A checkout session's amount, fixed when the session was created (no second conversion). */
  presentment?: { usd: bigint; currency: string; inputMinor: bigint };
  /** The id to give the transaction (a checkout session claims it before the cascade runs). */
  id?: string;
  /**
   * The payer is not known when the charge is made (a QR code at a counter: the payer's bank
   * identifies them when paying), so the rail's buyer fields are not asked for.
   */
  payerUnknown?: boolean;
  /** The QR order this payment carries the money of (its id is written on the row, qrOrderId). */
  qrOrderId?: string;
  /** Runs in the database transaction that inserts the payment (a checkout session completes there). */
  inTransaction?: (tx: Prisma.TransactionClient) => Promise<void>;
};

export async function createPayment(auth: AuthContext, input: CreatePaymentInput, opts: CreatePaymentOptions = {}) {
  validateRequest(auth, opts.behaviour);
  const { shop, rail, enabled } = await resolveShopAndRail(auth, input);
  const priced = await pricePayment(auth, rail, input, opts);
  const id = opts.id ?? newId("transaction");
  const userIp = input.userIp ?? opts.requestIp ?? null;
  const routed = await routePayment(auth, id, shop.id, rail, enabled, input, priced, userIp, opts);
  const row = paymentRow(auth, id, shop.id, rail, input, priced, routed.cascade, userIp, opts, new Date());
  return persistPayment(auth, row, priced.localRate, routed, opts);
}
