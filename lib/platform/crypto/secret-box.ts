// Secrets at rest (webhook signing secrets): AES-256-GCM with a key derived from ENCRYPTION_KEY.
// Stored as "v1.<iv>.<tag>.<ciphertext>" (base64url), so the scheme can change later.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "@/lib/platform/config";
import { singleton } from "@/lib/platform/singleton";

const key = () => singleton("secret-box-key", () => createHash("sha256").update(`secret-box:${config().ENCRYPTION_KEY}`).digest());

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function open(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
