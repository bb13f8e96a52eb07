// The names providers are shown by (the dashboard, operator output): constants only, so client
// components may import them. An unknown code is shown as it is.
const NAMES: Record<string, string> = { stripe: "Stripe", mercadopago: "Mercado Pago", ebanx: "EBANX", pagosur: "Pagosur (simulated)", andespay: "Andespay (simulated)", rapidpay: "Rapidpay (simulated)", sandbox: "Sandbox", simulated: "Simulated" };

export function providerName(code: string | null | undefined): string {
  if (!code) return "—";
  return NAMES[code] ?? code;
}
