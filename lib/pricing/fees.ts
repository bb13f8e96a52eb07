// Fees, rolling reserve and settlement (decisions.md): platform % by tier + 0.30 USD flat;
// provider and network fees from the routed rail; reserve a % of the net, held 90 days;
// settlement T+N from the rail. All in USD minor units.
import { percentOf } from "@/lib/money/amount";
import type { Rail } from "@/lib/rails/rails";
import type { MerchantTier } from "@/lib/generated/prisma/enums";

export const PLATFORM_FEE_BP: Record<MerchantTier, bigint> = { starter: 390n, standard: 290n, premium: 240n };
export const FLAT_FEE_USD_MINOR = 30n;
export const RESERVE_BP: Record<MerchantTier, bigint> = { starter: 1000n, standard: 500n, premium: 0n };
export const RESERVE_HOLD_DAYS = 90;
/** Fee per withdrawal of the pay-in balance, by tier (USD minor units). */
export const WITHDRAWAL_FEE_USD_MINOR: Record<MerchantTier, bigint> = { starter: 200n, standard: 100n, premium: 0n };

export type Pricing = { platformPercent: bigint; flat: bigint; provider: bigint; network: bigint; total: bigint; reserve: bigint; net: bigint };

export function priceCharge(amountUsd: bigint, tier: MerchantTier, rail: Rail): Pricing {
  const platformPercent = percentOf(amountUsd, PLATFORM_FEE_BP[tier]);
  const flat = FLAT_FEE_USD_MINOR;
  const provider = percentOf(amountUsd, BigInt(rail.providerFeeBp));
  const network = BigInt(rail.networkFeeUsdMinor);
  const total = platformPercent + flat + provider + network;
  const afterFees = amountUsd - total;
  const reserve = afterFees > 0n ? percentOf(afterFees, RESERVE_BP[tier]) : 0n;
  return { platformPercent, flat, provider, network, total, reserve, net: afterFees - reserve };
}

/** "T+2" -> 2 days. */
export function settlementDays(delay: string): number {
  const m = /^T\+(\d+)$/.exec(delay);
  return m ? Number(m[1]) : 1;
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}
