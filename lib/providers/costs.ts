// The provider cost table (issue 45): what each provider charges us per attempt, by rail, read by
// success-rate routing whose objective is net_revenue (lib/routing/select.ts). Configured like the
// rest of a provider (lib/providers/registry.ts), one variable per provider:
//   PROVIDER_<CODE>_COSTS = <rail>:<bp>:<fixed>[:<failed>], comma-separated
// <rail> a catalog id (1003) or * for every other rail the provider serves; <bp> basis points of
// the amount, charged on an approval; <fixed> USD minor units, charged on an approval; <failed>
// USD minor units charged on an attempt that is not approved (default: <fixed>, the fixed fee
// charged on every attempt, as most acquirers' price lists and the benchmark's market model do).
// Example: PROVIDER_RAPIDPAY_COSTS=1003:55:12,*:280:10:10
// A rail with no entry costs the rail's published provider fee (lib/rails/rails.ts providerFeeBp,
// networkFeeUsdMinor; failed attempts free): every provider of such a rail then costs the same,
// and net_revenue orders them as approval does.

/**
 * What an attempt at a provider costs, in USD minor units: `bp` basis points of the amount and
 * `fixedUsdMinor` when it is approved, `failedUsdMinor` when it is not.
 */
export type ProviderCost = { bp: number; fixedUsdMinor: number; failedUsdMinor: number };

export type CostTable = Map<string, ProviderCost>;

/** Parses a PROVIDER_<CODE>_COSTS value; a string says what is wrong with it. */
export function parseCosts(text: string): CostTable | string {
  const out: CostTable = new Map();
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^(\*|[A-Za-z0-9_]{1,40}):(\d{1,5}):(\d{1,7})(?::(\d{1,7}))?$/.exec(entry);
    if (!m) return `"${entry}" is not <rail>:<bp>:<fixed USD minor>[:<failed USD minor>]`;
    const bp = Number(m[2]);
    if (bp > 10_000) return `"${entry}": more than 10000 basis points`;
    if (out.has(m[1]!)) return `rail ${m[1]} is listed twice`;
    const fixedUsdMinor = Number(m[3]);
    out.set(m[1]!, { bp, fixedUsdMinor, failedUsdMinor: m[4] === undefined ? fixedUsdMinor : Number(m[4]) });
  }
  return out;
}

/** The cost of an attempt at a provider on a rail: its table's entry for the rail, else its `*`, else the rail's published fee. */
export function costFrom(table: CostTable | null, rail: { paymentMethodId: string; providerFeeBp: number; networkFeeUsdMinor: number }): ProviderCost {
  return table?.get(rail.paymentMethodId) ?? table?.get("*") ?? { bp: rail.providerFeeBp, fixedUsdMinor: rail.networkFeeUsdMinor, failedUsdMinor: 0 };
}
