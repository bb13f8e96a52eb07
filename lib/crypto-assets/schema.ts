// The settlement destination (decisions.md "Settlements (batches)"): shapes and endpoints.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { CRYPTO_ASSETS, CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";

export const cryptoDestination = z
  .object({
    asset: z.enum(CRYPTO_ASSETS),
    network: z.enum(CRYPTO_NETWORKS),
    address: z.string().describe("TRON: base58check (T…); Ethereum and Polygon: 0x + 40 hex, EIP-55 checksum when mixed case"),
  })
  .meta({ id: "CryptoDestination" });

export const settlementDestination = cryptoDestination
  .extend({ updatedAt: z.string() })
  .meta({ id: "SettlementDestination" });

export const setDestinationBody = z.object({
  asset: z.enum(CRYPTO_ASSETS),
  network: z.enum(CRYPTO_NETWORKS),
  address: z.string().trim().min(1).max(100),
});

const destinationResponse = z.object({ destination: settlementDestination.nullable().describe("null until one is set") });

export const getDestinationEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/settlement-destination",
  tag: "Settlements",
  summary: "Where settlements and withdrawals are sent",
  auth: "secret",
  permission: "read",
  response: destinationResponse,
  errors: [],
});

export const setDestinationEndpoint = defineEndpoint({
  method: "PUT",
  path: "/me/settlement-destination",
  tag: "Settlements",
  summary: "Set where settlements and withdrawals are sent",
  description:
    "Replaces the destination of the key's environment. The address is checked for its network (TRON base58check with the 0x41 prefix; EVM addresses with their EIP-55 checksum when mixed case); a wrong one is 400 `invalid_request` with `param: address`. `capabilities.crypto` in `/me` lists the asset-network pairs accepted.",
  auth: "secret",
  permission: "manageSettlements",
  body: setDestinationBody,
  response: destinationResponse,
  errors: ["invalid_request"],
});
