// Which providers split a card charge into installments, per country: routing asks only these
// for a payment in installments (a provider that cannot split is skipped, never asked to charge
// it at once).
// - Mercado Pago: `installments` on POST /v1/payments (the count the buyer chose), and on a Checkout
//   Pro preference `payment_methods.installments` (the most offered) and `default_installments`
//   (https://www.mercadopago.com.br/developers/en/docs/checkout-pro/additional-settings/preferences/payment-methods),
//   Brazil and Mexico; both fields are in MP's documented examples (lib/providers/mercadopago/fixtures).
// - EBANX: `payment.instalments` on the direct API (up to 12 in Brazil, Mexico's MSI counts);
//   https://docs.ebanx.com/docs/payments/guides/features/installments
// - the common protocol's simulators pagosur and rapidpay take `installments` {count, total};
//   andespay does not.
// - Stripe: Mexico only (MXN, Mexican cards), meses sin intereses on the card Checkout Session:
//   `payment_method_options[card][installments][enabled]` (installmentsOptions in
//   lib/providers/stripe/transformers.ts; https://docs.stripe.com/payments/meses-sin-intereses/accept-a-payment?payment-ui=checkout).
//   A session takes no count: the buyer picks the plan on Stripe's page (or pays at once), and the
//   plan paid on is read back from the charge (`payment_method_details.card.installments.plan`) and
//   booked on completion (lib/installments/final.ts). Sin intereses: the buyer pays the price, so
//   Stripe takes only shop-paid plans (SHOP_PAID_ONLY); a buyer-paid plan routes elsewhere.
//   Brazil: Stripe has no installments there.
const SPLITS: Record<string, ReadonlySet<string>> = {
  mercadopago: new Set(["BRA", "MEX"]),
  ebanx: new Set(["BRA", "MEX"]),
  pagosur: new Set(["BRA", "MEX"]),
  rapidpay: new Set(["BRA", "MEX"]),
  sandbox: new Set(["BRA", "MEX"]),
  stripe: new Set(["MEX"]),
};

/** Providers whose installments cost the buyer nothing: a plan whose buyer pays the interest is not theirs to charge. */
const SHOP_PAID_ONLY: ReadonlySet<string> = new Set(["stripe"]);

/** Whether `provider` splits a payment of `countryIso3` on a plan `paidBy` pays (default: the shop). */
export function splitsInstallments(provider: string, countryIso3: string, paidBy: "merchant" | "buyer" = "merchant"): boolean {
  if (paidBy === "buyer" && SHOP_PAID_ONLY.has(provider)) return false;
  return SPLITS[provider]?.has(countryIso3) ?? false;
}
