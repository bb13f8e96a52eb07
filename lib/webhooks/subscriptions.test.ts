// Signing secrets (lib/webhooks/subscriptions.ts): opened secrets are kept by their sealed text,
// so what a delivery signs with is always the secret the row holds now.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seal } from "@/lib/platform/crypto/secret-box";
import { signingSecrets } from "@/lib/webhooks/subscriptions";

test("signing secrets follow the row: the current one, a rotated one, the previous one only within its grace", () => {
  const first = seal("whsec_first");
  const now = new Date();
  for (let i = 0; i < 3; i++) assert.deepEqual(signingSecrets({ secretEncrypted: first, previousSecretEncrypted: null, previousSecretExpiresAt: null }, now), { current: "whsec_first", previous: null });
  const second = seal("whsec_second");
  const rotated = { secretEncrypted: second, previousSecretEncrypted: first, previousSecretExpiresAt: new Date(now.getTime() + 60_000) };
  assert.deepEqual(signingSecrets(rotated, now), { current: "whsec_second", previous: "whsec_first" });
  assert.deepEqual(signingSecrets(rotated, new Date(now.getTime() + 120_000)), { current: "whsec_second", previous: null });
  // A secret sealed again (same plain text, new nonce) opens to the same secret.
  assert.equal(signingSecrets({ secretEncrypted: seal("whsec_second"), previousSecretEncrypted: null, previousSecretExpiresAt: null }, now).current, "whsec_second");
});
