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
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { CreatePaymentOptions } from "@/lib/payments/create/options";
import { resolveShopAndRail, validateRequest } from "@/lib/payments/create/resolve";
import { pricePayment } from "@/lib/payments/create/price";
import { routePayment } from "@/lib/payments/create/route";
import { paymentRow, persistPayment } from "@/lib/payments/create/persist";

export type { CreatePaymentOptions };

export async function createPayment(auth: AuthContext, input: CreatePaymentInput, opts: CreatePaymentOptions = {}) {
  validateRequest(auth, opts.behaviour);
  const { shop, rail, enabled } = await resolveShopAndRail(auth, input);
  const priced = await pricePayment(auth, shop.id, rail, input, opts);
  const id = opts.id ?? newId("transaction");
  const userIp = input.userIp ?? opts.requestIp ?? null;
  const routed = await routePayment(auth, id, shop.id, rail, enabled, input, priced, userIp, opts);
  const row = paymentRow(auth, id, shop.id, rail, input, priced, routed.cascade, userIp, opts, new Date());
  return persistPayment(auth, row, priced.localRate, routed, opts);
}
