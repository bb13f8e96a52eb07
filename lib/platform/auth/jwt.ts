// Access tokens: JWT HS256, 15 minutes (decisions.md). Claims: sub = key pair id, mid, sid, env,
// kind, ver (the key pair's secret version, so rolling a secret retires its tokens).
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { randomBase62 } from "@/lib/platform/ids";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { singleton } from "@/lib/platform/singleton";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { KeyKind } from "@/lib/platform/auth/keys";

export const ACCESS_TOKEN_TTL_SECONDS = 900;
/** Our tokens name us and the API: a token minted for anything else with the same key is refused. */
export const TOKEN_ISSUER = "latam-payments";
export const TOKEN_AUDIENCE = "latam-payments/api";

export type AccessClaims = { sub: string; mid: string; sid: string | null; env: Environment; kind: KeyKind; ver: number };

const key = () => singleton("jwt-key", () => new TextEncoder().encode(config().JWT_SECRET));

export async function signAccessToken(claims: AccessClaims): Promise<string> {
  const { sub, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setIssuedAt()
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(randomBase62(16))
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(key());
}

export async function verifyAccessToken(token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"], issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, requiredClaims: ["exp", "iat", "sub"] });
    const { sub, mid, sid, env, kind, ver } = payload as Record<string, unknown>;
    if (typeof sub !== "string" || typeof mid !== "string" || (env !== "sandbox" && env !== "production") || (kind !== "secret" && kind !== "publishable") || typeof ver !== "number") {
      throw new AppError("invalid_token", "The access token is malformed.");
    }
    return { sub, mid, sid: typeof sid === "string" ? sid : null, env, kind, ver };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new AppError("token_expired", "The access token has expired; call POST /auth/token or /auth/refresh again.");
    throw new AppError("invalid_token", "The access token is invalid.");
  }
}
