// API key format (decisions.md): `{pk|sk}_{test|live}_` + 32 base62 characters (~190 bits).
// Secret keys are stored only as SHA-256 (enough for keys that random) plus a 4-char preview.
import { randomBase62 } from "@/lib/platform/ids";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import type { Environment } from "@/lib/generated/prisma/enums";

export type KeyKind = "secret" | "publishable";

const KEY_RE = /^(pk|sk)_(test|live)_[0-9A-Za-z]{32}$/;

export function parseApiKey(key: string): { kind: KeyKind; environment: Environment } | null {
  const m = KEY_RE.exec(key);
  if (!m) return null;
  return { kind: m[1] === "sk" ? "secret" : "publishable", environment: m[2] === "test" ? "sandbox" : "production" };
}

export function looksLikeApiKey(token: string): boolean {
  return /^(pk|sk)_/.test(token);
}

export function environmentTag(env: Environment): "test" | "live" {
  return env === "sandbox" ? "test" : "live";
}

export function generateKeyPair(env: Environment) {
  const tag = environmentTag(env);
  const publishableKey = `pk_${tag}_${randomBase62(32)}`;
  const secretKey = `sk_${tag}_${randomBase62(32)}`;
  return { publishableKey, secretKey, secretHash: hashSecretKey(secretKey), secretPreview: secretKey.slice(-4) };
}

export function hashSecretKey(secretKey: string): string {
  return sha256Hex(secretKey);
}

/** What /ping shows as `keyId`: kind and environment prefix, then only the last 4 characters. */
export function maskKey(kind: KeyKind, env: Environment, last4: string): string {
  return `${kind === "secret" ? "sk" : "pk"}_${environmentTag(env)}_…${last4.slice(-4)}`;
}
