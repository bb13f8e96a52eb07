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
