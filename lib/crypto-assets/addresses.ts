// Address checks for the networks we pay to, with the networks' own libraries rather than
// hand-written hashing: TRON addresses are base58check (bs58check) of 21 bytes starting 0x41;
// EVM addresses (Ethereum, Polygon) are 0x + 40 hex, and a mixed-case one must carry a valid
// EIP-55 checksum (viem's strict check), since a typo there sends money nowhere.
import bs58check from "bs58check";
import { isAddress } from "viem";
import type { CryptoNetwork } from "@/lib/crypto-assets/networks";

const TRON_PREFIX = 0x41;

function isTronAddress(address: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  try {
    const payload = bs58check.decode(address);
    return payload.length === 21 && payload[0] === TRON_PREFIX;
  } catch {
    return false;
  }
}

/** Whether `address` can receive on `network` (format and checksum only; not whether it exists). */
export function isValidAddress(network: CryptoNetwork, address: string): boolean {
  if (network === "TRON") return isTronAddress(address);
  return /^0x[0-9a-fA-F]{40}$/.test(address) && isAddress(address, { strict: true });
}
