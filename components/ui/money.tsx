// Money always shows its currency. Amounts arrive as the API's major-unit numbers.
const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string): string {
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code" });
    formatters.set(currency, f);
  }
  // "USD 1,234.50" -> "1,234.50 USD": the amount first reads better in tables.
  const parts = f.formatToParts(amount);
  const number = parts.filter((p) => p.type !== "currency" && p.type !== "literal").map((p) => p.value).join("");
  return `${number} ${currency}`;
}

export function Money({ amount, currency, className }: { amount: number; currency: string; className?: string }) {
  return <span className={`tabular-nums whitespace-nowrap ${className ?? ""}`}>{formatMoney(amount, currency)}</span>;
}

// The home locale of each currency the service charges in, for an amount as its own shoppers read it.
const HOME_LOCALE: Record<string, string> = { BRL: "pt-BR", MXN: "es-MX", COP: "es-CO", CLP: "es-CL", ARS: "es-AR", PEN: "es-PE", USD: "en-US" };
const localFormatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount in its currency's own format: "R$ 150,00" (BRL), "S/ 150.00" (PEN). Where the symbol
 * alone is a bare "$" shared by several currencies the code follows: "$1,500.00 MXN".
 */
export function formatLocalMoney(amount: number, currency: string): string {
  let f = localFormatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat(HOME_LOCALE[currency] ?? "en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol" });
    localFormatters.set(currency, f);
  }
  const text = f.format(amount);
  return /^-?\$/.test(text.replace(/\s/g, "")) ? `${text} ${currency}` : text;
}
