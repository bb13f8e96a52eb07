// Dashboard passwords at rest.
import { hash as argon2Hash } from "@node-rs/argon2";

export async function hashPassword(password: string): Promise<string> {
  // argon2id, memory-hard: 19 MiB, 2 passes (OWASP's baseline).
  return argon2Hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
}
