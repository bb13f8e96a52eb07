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
// - Stripe: Mexico's plans exist on a PaymentIntent (payment_method_options[card][installments][plan],
//   built by installmentsPlanOptions in lib/providers/stripe/transformers.ts from spec3), but our card
//   charge is a Checkout Session, which takes no plan, so the plan is not sent yet and Stripe is not
//   asked for installment payments. Brazil: Stripe has no installments there.
const SPLITS: Record<string, ReadonlySet<string>> = {
  mercadopago: new Set(["BRA", "MEX"]),
  ebanx: new Set(["BRA", "MEX"]),
  pagosur: new Set(["BRA", "MEX"]),
  rapidpay: new Set(["BRA", "MEX"]),
  sandbox: new Set(["BRA", "MEX"]),
};

export function splitsInstallments(provider: string, countryIso3: string): boolean {
  return SPLITS[provider]?.has(countryIso3) ?? false;
}
