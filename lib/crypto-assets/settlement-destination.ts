// GET and PUT /me/settlement-destination: one destination per merchant and environment, its
// address checked for its network before it is stored.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import { isSupportedPair, SUPPORTED_PAIR_NAMES, type CryptoAsset, type CryptoNetwork } from "@/lib/crypto-assets/networks";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";

export type Destination = { asset: CryptoAsset; network: CryptoNetwork; address: string };

const present = (d: { asset: string; network: string; address: string; updatedAt: Date }) => ({
  asset: d.asset as CryptoAsset,
  network: d.network as CryptoNetwork,
  address: d.address,
  updatedAt: d.updatedAt.toISOString(),
});

/** The stored destination of the scope, or null. */
export async function findDestination(scope: Owner): Promise<Destination | null> {
  const d = await db().settlementDestination.findUnique({ where: { merchantId_environment: merchantScope(scope) } });
  return d ? { asset: d.asset as CryptoAsset, network: d.network as CryptoNetwork, address: d.address } : null;
}

export async function getSettlementDestination(scope: Owner) {
  const d = await db().settlementDestination.findUnique({ where: { merchantId_environment: merchantScope(scope) } });
  return { destination: d ? present(d) : null };
}

/** Checks a destination given by a caller (here, or a withdrawal's own): pair supported, address well-formed. */
export function checkDestination(input: { asset: CryptoAsset; network: CryptoNetwork; address: string }, param = "address"): Destination {
  if (!isSupportedPair(input.asset, input.network)) {
    throw new AppError("invalid_request", `${input.asset} on ${input.network} is not supported; use one of ${SUPPORTED_PAIR_NAMES.join(", ")}.`, { param: param === "address" ? "network" : param });
  }
  const address = input.address.trim();
  if (!isValidAddress(input.network, address)) {
    const shape = input.network === "TRON" ? "a TRON base58check address starting with T" : "0x followed by 40 hex digits, with a valid EIP-55 checksum when mixed case";
    throw new AppError("invalid_request", `The address is not a valid ${input.network} address: expected ${shape}.`, { param });
  }
  return { asset: input.asset, network: input.network, address };
}

export async function setSettlementDestination(scope: Owner, input: { asset: CryptoAsset; network: CryptoNetwork; address: string }) {
  const d = checkDestination(input);
  const key = merchantScope(scope);
  const row = await db().settlementDestination.upsert({ where: { merchantId_environment: key }, create: { ...key, ...d }, update: d });
  return { destination: present(row) };
}
