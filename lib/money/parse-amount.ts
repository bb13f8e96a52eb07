// The one check that turns an API amount (a number in major units) into minor units: a positive
// finite number with at most the currency's decimals, or 400 amount_invalid (some endpoints
// answer it with another status, passed by the caller).
import { AppError } from "@/lib/platform/errors";
import { toMinor } from "@/lib/money/amount";

export function parseAmount(value: unknown, currency: string, param = "amount", status?: 422): bigint {
  const minor = typeof value === "number" && value > 0 ? toMinor(value, currency) : null;
  if (minor === null || minor <= 0n) throw new AppError("amount_invalid", `\`${param}\` must be a positive number of ${currency} with at most its decimals.`, { param, status });
  return minor;
}
