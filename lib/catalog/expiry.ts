// How long a pay-in waits for the buyer, per rail (decisions.md, Pay-ins): a card or PIX charge
// is paid within minutes, a SPEI reference within a day, a cash voucher or boleto over days. An
// optional `expiresInMinutes` (5 to 4,320) on create overrides the default within the rail's own
// maximum.
import { AppError } from "@/lib/platform/errors";
import type { Rail } from "@/lib/rails/rails";

export const EXPIRES_IN_MINUTES = { min: 5, max: 4_320 } as const;

export type RailExpiry = { defaultMinutes: number; maxMinutes: number };

const HOUR = 60;
const DAY = 24 * HOUR;

export function railExpiry(rail: Pick<Rail, "method" | "channel" | "countryIso3">): RailExpiry {
  if (rail.method === "boleto") return { defaultMinutes: 3 * DAY, maxMinutes: 3 * DAY }; // the boleto's due date
  if (rail.channel === "CASH") return { defaultMinutes: 3 * DAY, maxMinutes: 3 * DAY }; // OXXO and other vouchers
  if (rail.method === "spei") return { defaultMinutes: DAY, maxMinutes: 3 * DAY };
  if (rail.method === "pix") return { defaultMinutes: 30, maxMinutes: DAY };
  if (rail.method === "card") return { defaultMinutes: 30, maxMinutes: HOUR };
  if (rail.method === "bank_transfer" && rail.countryIso3 === "COL") return { defaultMinutes: 30, maxMinutes: HOUR }; // PSE
  return { defaultMinutes: DAY, maxMinutes: 3 * DAY }; // other bank transfers
}

/** When a payment on `rail` created at `now` expires; `expiresInMinutes` past the rail's maximum is 400 invalid_request. */
export function expiresAtFor(rail: Pick<Rail, "method" | "channel" | "countryIso3" | "paymentMethodId">, now: Date, expiresInMinutes?: number): Date {
  const e = railExpiry(rail);
  if (expiresInMinutes !== undefined && expiresInMinutes > e.maxMinutes) {
    throw new AppError("invalid_request", `\`expiresInMinutes\` can be at most ${e.maxMinutes} for ${rail.paymentMethodId}.`, { param: "expiresInMinutes", details: { max: e.maxMinutes, default: e.defaultMinutes } });
  }
  return new Date(now.getTime() + (expiresInMinutes ?? e.defaultMinutes) * 60_000);
}
