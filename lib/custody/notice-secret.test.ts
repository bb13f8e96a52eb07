import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "@/lib/platform/config";

const custody = { CUSTODY_URL: "http://127.0.0.1:9999", CUSTODY_SECRET: "outbound-custody-secret-0123" };

test("the inbound notice secret is its own: equal to CUSTODY_SECRET is refused at start", () => {
  assert.throws(() => parseConfig({ ...custody, CUSTODY_NOTICE_SECRET: custody.CUSTODY_SECRET }), (err: unknown) => err instanceof ConfigError && /CUSTODY_NOTICE_SECRET: must differ from CUSTODY_SECRET/.test(err.message));
  assert.equal(parseConfig({ ...custody, CUSTODY_NOTICE_SECRET: "inbound-notice-secret-0123" }).CUSTODY_NOTICE_SECRET, "inbound-notice-secret-0123");
});

test("development without custody settings still starts (no notice secret: notices are refused, not trusted)", () => {
  assert.equal(parseConfig({}).CUSTODY_NOTICE_SECRET, undefined);
  assert.equal(parseConfig(custody).CUSTODY_NOTICE_SECRET, undefined);
});
