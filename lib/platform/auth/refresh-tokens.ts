// POST /auth/refresh: single-use refresh tokens with rotation. Presenting a spent token is
// treated as theft: the whole family (every token descended from the same /auth/token call)
// is revoked and the caller must authenticate with the key pair again.
import { AppError } from "@/lib/platform/errors";
import { db } from "@/lib/platform/db";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { principalByKeyPairId } from "@/lib/platform/auth/principal";
import { assertActive, mintTokens } from "@/lib/platform/auth/issue-tokens";
import type { TokenResponse } from "@/lib/platform/auth/schema";

export async function refreshTokens(input: { refreshToken: string }): Promise<TokenResponse> {
  const tokenHash = sha256Hex(input.refreshToken);
  const row = await db().refreshToken.findUnique({ where: { tokenHash } });
  if (!row || row.revokedAt) throw new AppError("invalid_token", "The refresh token is invalid or was revoked.", { param: "refreshToken" });
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError("token_expired", "The refresh token has expired; call POST /auth/token.", { param: "refreshToken" });

  const principal = await principalByKeyPairId(row.keyPairId);
  if (!principal || principal.revoked) throw new AppError("invalid_token", "The key pair behind this refresh token was revoked.", { param: "refreshToken" });
  assertActive(principal);

  const outcome = await db().$transaction(async (tx) => {
    // Spend the token atomically: of two concurrent refreshes only one can flip used_at.
    const spent = await tx.refreshToken.updateMany({ where: { id: row.id, usedAt: null, revokedAt: null }, data: { usedAt: new Date() } });
    if (spent.count === 0) {
      await tx.refreshToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: new Date() } });
      return null;
    }
    return mintTokens(principal, row.familyId, tx);
  });
  if (!outcome) throw new AppError("invalid_token", "The refresh token was already used; every token of its family is now revoked.", { param: "refreshToken" });
  return outcome;
}
