// The stablecoins and networks settlements, withdrawals and top-ups use (decisions.md,
// "Settlements (batches)" and "Crypto top-ups"). USD stablecoins count 1:1 as USD.
export const CRYPTO_ASSETS = ["USDT", "USDC"] as const;
export const CRYPTO_NETWORKS = ["TRON", "ETHEREUM", "POLYGON"] as const;
export type CryptoAsset = (typeof CRYPTO_ASSETS)[number];
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/**
 * The pairs we send and receive, as `/me` lists them in `capabilities.crypto`. USDC on TRON is
 * left out: Circle stopped issuing it there in 2024, so an address on it could receive nothing.
 */
export const CRYPTO_PAIRS: readonly { asset: CryptoAsset; network: CryptoNetwork }[] = [
  { asset: "USDT", network: "TRON" },
  { asset: "USDT", network: "ETHEREUM" },
  { asset: "USDT", network: "POLYGON" },
  { asset: "USDC", network: "ETHEREUM" },
  { asset: "USDC", network: "POLYGON" },
];

export const pairName = (p: { asset: string; network: string }) => `${p.asset}-${p.network}`;
export const SUPPORTED_PAIR_NAMES: readonly string[] = CRYPTO_PAIRS.map(pairName);
export const isSupportedPair = (asset: string, network: string) => SUPPORTED_PAIR_NAMES.includes(`${asset}-${network}`);

/** Confirmations after which a transfer on the network counts as final (top-ups are credited then). */
export const CONFIRMATIONS: Record<CryptoNetwork, number> = { TRON: 20, ETHEREUM: 12, POLYGON: 128 };
