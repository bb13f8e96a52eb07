// The three simulated providers (scripts/psp/simulator.ts), the rails and limits each serves, and
// the app's environment that points its connectors at them.

/** `installments`: whether the provider splits a card charge (andespay does not: it refuses one that asks). */
/** `mandates`: whether it holds Pix Automático recurrences (API Pix /rec and /cobr, ./pix-automatico.ts): pagosur only. */
export type SimulatedProvider = { code: string; secret: string; noticeSecret: string; port: number; installments: boolean; mandates?: boolean; rails: Array<{ method: string; country: string; minMinor: bigint; maxMinor: bigint }> };

const M = (s: string) => BigInt(s);
/** The three simulated providers and the rails each serves (codes match lib/providers/registry.ts). */
export const SIMULATED_PROVIDERS = (ports: [number, number, number], secrets: [string, string, string], noticeSecrets: [string, string, string] = [`${secrets[0]}-notices`, `${secrets[1]}-notices`, `${secrets[2]}-notices`]): SimulatedProvider[] => [
  { code: "pagosur", port: ports[0], secret: secrets[0], noticeSecret: noticeSecrets[0], installments: true, mandates: true, rails: [{ method: "pix", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "boleto", country: "BRA", minMinor: M("500"), maxMinor: M("5000000") }, { method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "oxxo", country: "MEX", minMinor: M("1000"), maxMinor: M("1000000") }, { method: "card", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }] },
  { code: "andespay", port: ports[1], secret: secrets[1], noticeSecret: noticeSecrets[1], installments: false, rails: [{ method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "oxxo", country: "MEX", minMinor: M("1000"), maxMinor: M("1000000") }, { method: "bank_transfer", country: "COL", minMinor: M("100000"), maxMinor: M("5000000000") }, { method: "bank_transfer", country: "PER", minMinor: M("500"), maxMinor: M("10000000") }, { method: "bank_transfer", country: "CHL", minMinor: M("500"), maxMinor: M("20000000") }, { method: "card", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }] },
  { code: "rapidpay", port: ports[2], secret: secrets[2], noticeSecret: noticeSecrets[2], installments: true, rails: [{ method: "pix", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "bank_transfer", country: "COL", minMinor: M("100000"), maxMinor: M("5000000000") }, { method: "card", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "card", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }] },
];

/** Env for the app: PROVIDER_<CODE>_URL / _SECRET (our calls) / _NOTICE_SECRET (their notices) of each simulated provider. */
export function providerEnv(providers: SimulatedProvider[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const p of providers) {
    env[`PROVIDER_${p.code.toUpperCase()}_URL`] = `http://127.0.0.1:${p.port}`;
    env[`PROVIDER_${p.code.toUpperCase()}_SECRET`] = p.secret;
    env[`PROVIDER_${p.code.toUpperCase()}_NOTICE_SECRET`] = p.noticeSecret;
  }
  return env;
}
