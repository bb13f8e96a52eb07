// The providers' configuration as the start checks it: malformed keys, hosts and timeouts stop
// the start with a line naming the variable (never its value), production asks for https hosts
// and notice secrets of real providers, and a half-configured provider is named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { providerConfigErrors } from "@/lib/providers/registry";

const EBANX_CERT = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString().trim().replace(/\n/g, "\\n");
const stripe = { PROVIDER_STRIPE_SECRET: "sk_test_51Habcdefghijklmnop", PROVIDER_STRIPE_NOTICE_SECRET: "whsec_abcdefghijklmnop" };

test("well-formed real and simulated providers pass, in development and in production", () => {
  assert.deepEqual(providerConfigErrors({ ...stripe, PROVIDER_PAGOSUR_URL: "http://127.0.0.1:4010", PROVIDER_PAGOSUR_SECRET: "x" }, false), []);
  assert.deepEqual(providerConfigErrors({ ...stripe, PROVIDER_MERCADOPAGO_SECRET: "APP_USR-1234567890-abcdef", PROVIDER_MERCADOPAGO_NOTICE_SECRET: "0123456789abcdef0123" }, true), []);
});

test("a key of the wrong shape is named, its value never printed", () => {
  const errors = providerConfigErrors({ PROVIDER_STRIPE_SECRET: "pk_test_publishable_key_here", PROVIDER_MERCADOPAGO_SECRET: "not-a-token" }, false);
  assert.equal(errors.length, 2);
  assert.match(errors[0]!, /PROVIDER_STRIPE_SECRET does not look like a secret key/);
  assert.match(errors[1]!, /PROVIDER_MERCADOPAGO_SECRET does not look like an access token/);
  assert.ok(errors.every((e) => !e.includes("pk_test_publishable_key_here") && !e.includes("not-a-token")));
});

test("production: a real provider's host must be https and its notice secret is required", () => {
  const errors = providerConfigErrors({ PROVIDER_STRIPE_SECRET: stripe.PROVIDER_STRIPE_SECRET, PROVIDER_STRIPE_URL: "http://stripe.internal" }, true);
  assert.deepEqual(errors, ["PROVIDER_STRIPE_URL must be https in production", "PROVIDER_STRIPE_NOTICE_SECRET is required in production (the webhook endpoint's signing secret, whsec_…): without it every Stripe notice is refused"]);
  // The same in development: a simulator on loopback.
  assert.deepEqual(providerConfigErrors({ PROVIDER_STRIPE_SECRET: stripe.PROVIDER_STRIPE_SECRET, PROVIDER_STRIPE_URL: "http://127.0.0.1:4020" }, false), []);
});

test("a notice secret or host without the key, a bad URL, a bad timeout", () => {
  assert.deepEqual(providerConfigErrors({ PROVIDER_EBANX_NOTICE_SECRET: EBANX_CERT }, false), ["PROVIDER_EBANX_SECRET is missing: EBANX is half configured"]);
  assert.deepEqual(providerConfigErrors({ PROVIDER_RAPIDPAY_URL: "ftp://x", PROVIDER_RAPIDPAY_TIMEOUT_MS: "fast" }, false), ["PROVIDER_RAPIDPAY_URL is not an http(s) URL", "PROVIDER_RAPIDPAY_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000"]);
});

test("an EBANX certificate of the right shape that is no readable key stops the start, its value never printed", () => {
  const ebanx = { PROVIDER_EBANX_SECRET: "integration_key_0123456789" };
  assert.deepEqual(providerConfigErrors({ ...ebanx, PROVIDER_EBANX_NOTICE_SECRET: EBANX_CERT }, true), []);
  const bad = "-----BEGIN PUBLIC KEY-----\\nMIIBIjAN\\n-----END PUBLIC KEY-----";
  const errors = providerConfigErrors({ ...ebanx, PROVIDER_EBANX_NOTICE_SECRET: bad }, false);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /PROVIDER_EBANX_NOTICE_SECRET is not a certificate or public key that can be read/);
  assert.ok(!errors[0]!.includes("MIIBIjAN"));
});
