// POST /auth/token: a publishable + secret key pair buys an access token and a refresh token.
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/platform/errors";
import { db, type Tx } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { safeEqual, sha256Hex } from "@/lib/platform/crypto/hash";
import { hashSecretKey, parseApiKey } from "@/lib/platform/auth/keys";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "@/lib/platform/auth/jwt";
import { principalByPublishableKey, type Principal } from "@/lib/platform/auth/principal";
import type { TokenResponse } from "@/lib/platform/auth/schema";

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

export function newRefreshToken(): { token: string; hash: string } {
  const token = `rt_${randomBytes(32).toString("base64url")}`;
  return { token, hash: sha256Hex(token) };
}

/** Mints the pair; the refresh token row is written in `tx` when given (rotation). */
export async function mintTokens(p: Principal, familyId: string, tx: Tx | ReturnType<typeof db> = db()): Promise<TokenResponse> {
  const refresh = newRefreshToken();
  await tx.refreshToken.create({
    data: {
      id: newId("refreshToken"),
      tokenHash: refresh.hash,
      familyId,
      keyPairId: p.keyPairId,
      merchantId: p.merchant.id,
      environment: p.environment,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
    },
  });
  const accessToken = await signAccessToken({ sub: p.keyPairId, mid: p.merchant.id, sid: p.shop?.id ?? null, env: p.environment, kind: "secret", ver: p.secretVersion });
  return { accessToken, refreshToken: refresh.token, tokenType: "Bearer", expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

export function assertActive(p: Principal) {
  if (p.merchant.status === "suspended") throw new AppError("merchant_suspended", "The merchant account is suspended. Contact support.");
  if (p.shop?.status === "suspended") throw new AppError("shop_suspended", "The shop is suspended. Contact support.");
}

export async function issueTokens(input: { apiKey: string; secretKey: string }): Promise<TokenResponse> {
  const pk = parseApiKey(input.apiKey);
  const sk = parseApiKey(input.secretKey);
  if (!pk || pk.kind !== "publishable") throw new AppError("invalid_api_key", "`apiKey` must be a publishable key (pk_test_… or pk_live_…).", { param: "apiKey" });
  if (!sk || sk.kind !== "secret") throw new AppError("invalid_api_key", "`secretKey` must be a secret key (sk_test_… or sk_live_…).", { param: "secretKey" });
  const principal = await principalByPublishableKey(input.apiKey);
  if (!principal || principal.revoked) throw new AppError("invalid_api_key", "The key pair is unknown or was revoked.");
  // Compare hashes in constant time: the secret is never stored, only its SHA-256.
  const stored = await db().apiKeyPair.findUnique({ where: { id: principal.keyPairId }, select: { secretHash: true } });
  if (!stored || !safeEqual(stored.secretHash, hashSecretKey(input.secretKey)) || sk.environment !== pk.environment) {
    throw new AppError("invalid_api_key", "The secret key does not belong to this publishable key, or was rolled.");
  }
  assertActive(principal);
  return mintTokens(principal, newId("refreshToken"));
}
