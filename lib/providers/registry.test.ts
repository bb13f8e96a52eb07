// The providers' configuration as the start checks it: malformed keys, hosts and timeouts stop
// the start with a line naming the variable (never its value), production asks for https hosts
// and notice secrets of real providers (no loopback or private host), a half-configured provider is
// named, and the variables are the ones decisions.md names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { providerConfigErrors } from "@/lib/providers/registry";

const EBANX_CERT = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString().trim().replace(/\n/g, "\\n");
const stripe = { PROVIDER_STRIPE_SECRET_KEY: "sk_test_51Habcdefghijklmnop", PROVIDER_STRIPE_WEBHOOK_SECRET: "whsec_abcdefghijklmnop" };

test("well-formed real and simulated providers pass, in development and in production", () => {
  assert.deepEqual(providerConfigErrors({ ...stripe, PROVIDER_PAGOSUR_URL: "http://127.0.0.1:4010", PROVIDER_PAGOSUR_SECRET: "x" }, false), []);
  assert.deepEqual(providerConfigErrors({ ...stripe, PROVIDER_MERCADOPAGO_ACCESS_TOKEN: "APP_USR-1234567890-abcdef", PROVIDER_MERCADOPAGO_WEBHOOK_SECRET: "0123456789abcdef0123" }, true), []);
});

test("a key of the wrong shape is named, its value never printed", () => {
  const errors = providerConfigErrors({ PROVIDER_STRIPE_SECRET_KEY: "pk_test_publishable_key_here", PROVIDER_MERCADOPAGO_ACCESS_TOKEN: "not-a-token" }, false);
  assert.equal(errors.length, 2);
  assert.match(errors[0]!, /PROVIDER_STRIPE_SECRET_KEY does not look like a secret key/);
  assert.match(errors[1]!, /PROVIDER_MERCADOPAGO_ACCESS_TOKEN does not look like an access token/);
  assert.ok(errors.every((e) => !e.includes("pk_test_publishable_key_here") && !e.includes("not-a-token")));
});

test("production: a real provider's host must be https and its notice secret is required", () => {
  const errors = providerConfigErrors({ PROVIDER_STRIPE_SECRET_KEY: stripe.PROVIDER_STRIPE_SECRET_KEY, PROVIDER_STRIPE_URL: "http://stripe.internal" }, true);
  assert.deepEqual(errors, ["PROVIDER_STRIPE_URL must be https in production", "PROVIDER_STRIPE_WEBHOOK_SECRET is required in production (the webhook endpoint's signing secret, whsec_…): without it every Stripe notice is refused"]);
  // The same in development: a simulator on loopback.
  assert.deepEqual(providerConfigErrors({ PROVIDER_STRIPE_SECRET_KEY: stripe.PROVIDER_STRIPE_SECRET_KEY, PROVIDER_STRIPE_URL: "http://127.0.0.1:4020" }, false), []);
});

test("a notice secret or host without the key, a bad URL, a bad timeout", () => {
  assert.deepEqual(providerConfigErrors({ PROVIDER_EBANX_NOTICE_CERTIFICATE: EBANX_CERT }, false), ["PROVIDER_EBANX_INTEGRATION_KEY is missing: EBANX is half configured"]);
  assert.deepEqual(providerConfigErrors({ PROVIDER_RAPIDPAY_URL: "ftp://x", PROVIDER_RAPIDPAY_TIMEOUT_MS: "fast" }, false), ["PROVIDER_RAPIDPAY_URL is not an http(s) URL", "PROVIDER_RAPIDPAY_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000"]);
});

test("an EBANX certificate of the right shape that is no readable key stops the start, its value never printed", () => {
  const ebanx = { PROVIDER_EBANX_INTEGRATION_KEY: "integration_key_0123456789" };
  assert.deepEqual(providerConfigErrors({ ...ebanx, PROVIDER_EBANX_NOTICE_CERTIFICATE: EBANX_CERT }, true), []);
  const bad = "-----BEGIN PUBLIC KEY-----\\nMIIBIjAN\\n-----END PUBLIC KEY-----";
  const errors = providerConfigErrors({ ...ebanx, PROVIDER_EBANX_NOTICE_CERTIFICATE: bad }, false);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /PROVIDER_EBANX_NOTICE_CERTIFICATE is not a certificate or public key that can be read/);
  assert.ok(!errors[0]!.includes("MIIBIjAN"));
});

test("production: a real provider's host is no loopback or private address; EBANX needs no certificate", () => {
  const key = { PROVIDER_EBANX_INTEGRATION_KEY: "integration_key_0123456789" };
  for (const host of ["https://127.0.0.1:4020", "https://localhost", "https://10.1.2.3", "https://192.168.0.9", "https://[::1]:8443", "https://169.254.169.254"]) {
    assert.deepEqual(providerConfigErrors({ ...key, PROVIDER_EBANX_URL: host }, true), ["PROVIDER_EBANX_URL names a loopback or private address: no simulator stands in for EBANX in production"], host);
  }
  assert.deepEqual(providerConfigErrors({ ...key, PROVIDER_EBANX_URL: "https://sandbox.ebanxpay.com" }, true), []);
  // The same loopback host in development: a simulator.
  assert.deepEqual(providerConfigErrors({ ...key, PROVIDER_EBANX_URL: "http://127.0.0.1:4020" }, false), []);
});

test("an earlier version's generic names are not read, and the start says which names are", () => {
  const errors = providerConfigErrors({ PROVIDER_STRIPE_SECRET: "sk_test_51Habcdefghijklmnop", PROVIDER_MERCADOPAGO_NOTICE_SECRET: "0123456789abcdef0123" }, false);
  assert.deepEqual(errors, [
    "PROVIDER_STRIPE_SECRET is not read: Stripe is configured by PROVIDER_STRIPE_SECRET_KEY and PROVIDER_STRIPE_WEBHOOK_SECRET",
    "PROVIDER_MERCADOPAGO_NOTICE_SECRET is not read: Mercado Pago is configured by PROVIDER_MERCADOPAGO_ACCESS_TOKEN and PROVIDER_MERCADOPAGO_WEBHOOK_SECRET",
  ]);
});
