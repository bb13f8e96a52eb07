// Money always shows its currency, in the one format of the dashboard: each currency as its own
// shoppers write it ("R$ 150,00", "S/ 150.00"), the code after a bare "$" ("$18.15 USD",
// "$1,500.00 MXN"). One formatter for every amount, so a page never shows "R$ 100,00" beside
// "100.00 BRL". Amounts arrive as the API's major-unit numbers.

// The home locale of each currency the service charges in, for an amount as its own shoppers read it.
const HOME_LOCALE: Record<string, string> = { BRL: "pt-BR", MXN: "es-MX", COP: "es-CO", CLP: "es-CL", ARS: "es-AR", PEN: "es-PE", USD: "en-US" };
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount in its currency's own format: "R$ 150,00" (BRL), "S/ 150.00" (PEN). Where the symbol
 * alone is a bare "$" shared by several currencies the code follows: "$1,500.00 MXN", "$18.15 USD".
 */
export function formatMoney(amount: number, currency: string): string {
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat(HOME_LOCALE[currency] ?? "en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol" });
    formatters.set(currency, f);
  }
  const text = f.format(amount);
  return /^-?\$/.test(text.replace(/\s/g, "")) ? `${text} ${currency}` : text;
}

/** The same format under the name the payment page's callers know it by. */
export const formatLocalMoney = formatMoney;

export function Money({ amount, currency, className }: { amount: number; currency: string; className?: string }) {
  return <span className={`tabular-nums whitespace-nowrap ${className ?? ""}`}>{formatMoney(amount, currency)}</span>;
}
