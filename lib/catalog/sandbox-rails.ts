// The built-in sandbox test rails of API reference 4.9. The pay-ins catalog lists them in every
// sandbox; /me derives the sandbox's method capabilities from them.
export const SANDBOX_RAILS = [
  { paymentMethodId: "sbx_pix", method: "pix", name: "PIX", countryIso3: "BRA", channel: "ONLINE" },
  { paymentMethodId: "sbx_spei", method: "spei", name: "SPEI", countryIso3: "MEX", channel: "ONLINE" },
  { paymentMethodId: "sbx_pse", method: "bank_transfer", name: "PSE", countryIso3: "COL", channel: "ONLINE" },
  { paymentMethodId: "sbx_card", method: "card", name: "Card", countryIso3: "USA", channel: "CREDIT_CARD" },
  { paymentMethodId: "sbx_cash", method: "oxxo", name: "OXXO", countryIso3: "MEX", channel: "CASH" },
] as const;
