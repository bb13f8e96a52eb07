import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { ACCESS_TOKEN_TTL_SECONDS } from "@/lib/platform/auth/jwt";

export const issueTokenBody = z.object({
  apiKey: z.string().min(1).max(200).describe("The publishable key (pk_test_… or pk_live_…)"),
  secretKey: z.string().min(1).max(200).describe("The secret key of the same pair (sk_test_… or sk_live_…)"),
});

export const refreshTokenBody = z.object({
  refreshToken: z.string().min(1).max(200),
});

export const tokenResponse = z
  .object({
    accessToken: z.string().describe("JWT (HS256); send as `Authorization: Bearer <accessToken>`"),
    refreshToken: z.string().describe("Opaque, single use, valid 30 days"),
    tokenType: z.literal("Bearer"),
    expiresIn: z.number().int().describe(`Seconds until the access token expires (${ACCESS_TOKEN_TTL_SECONDS})`),
  })
  .meta({ id: "TokenPair" });

export type TokenResponse = z.infer<typeof tokenResponse>;


export const issueTokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/auth/token",
  tag: "Auth",
  summary: "Exchange a key pair for an access token",
  description: "The publishable key and the secret key of one pair buy a 15-minute access token and a 30-day, single-use refresh token.",
  auth: "none",
  body: issueTokenBody,
  response: tokenResponse,
  errors: ["invalid_api_key", "merchant_suspended", "shop_suspended"],
});

export const refreshTokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/auth/refresh",
  tag: "Auth",
  summary: "Rotate a refresh token",
  description: "Both tokens rotate: the presented refresh token is spent. Presenting a spent token revokes its whole family.",
  auth: "none",
  body: refreshTokenBody,
  response: tokenResponse,
  errors: ["invalid_token", "token_expired", "merchant_suspended", "shop_suspended"],
});
