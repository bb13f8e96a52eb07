// The dashboard's security over real HTTP: sign-in through Auth.js' own endpoints (CSRF token
// required), throttled failed attempts, session cookie expiry, the cross-site refusal of server
// actions, roles enforced by the server actions themselves (not only by hidden buttons), and the
// data routes' session and merchant scoping.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, newMerchant } from "./helpers.ts";
import { createDashboardUser } from "@/lib/accounts/users";
import { MAX_PER_EMAIL } from "@/lib/accounts/throttle";

const PASSWORD = "correct horse battery staple";

async function userOf(role: "owner" | "developer" | "viewer") {
  const m = await newMerchant();
  const email = `${role}-${Math.random().toString(36).slice(2, 10)}@example.test`;
  await createDashboardUser({ merchantId: m.merchantId, email, password: PASSWORD, role });
  return { m, email };
}

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** One sign-in attempt through POST /api/auth/callback/credentials, as a browser form would. */
async function attempt(email: string, password: string, opts: { csrf?: boolean; ip?: string } = {}) {
  const c = await fetch(`${API_URL}/api/auth/csrf`);
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const jar = cookiesOf(c);
  const form = new URLSearchParams({ email, password, callbackUrl: `${API_URL}/dashboard`, ...(opts.csrf === false ? {} : { csrfToken }) });
  const res = await fetch(`${API_URL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; "), ...(opts.ip ? { "x-forwarded-for": opts.ip } : {}) },
    body: form,
  });
  const session = res.headers.getSetCookie().find((s) => /session-token=/.test(s));
  return { status: res.status, location: res.headers.get("location") ?? "", session, cookie: session?.split(";")[0] };
}

async function signedIn(email: string) {
  const a = await attempt(email, PASSWORD);
  assert.ok(a.cookie, `no session cookie: ${a.status} ${a.location}`);
  return a.cookie!;
}

/** The id of a server action, read from the client chunks of a page (as the browser gets it). */
async function actionId(cookie: string, page: string, name: string): Promise<string> {
  const html = await (await fetch(`${API_URL}${page}`, { headers: { cookie } })).text();
  const scripts = [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!);
  for (const src of scripts) {
    const js = await (await fetch(`${API_URL}${src}`)).text();
    const m = new RegExp(`"([0-9a-f]{40,})"[^"]{0,200}"${name}"`).exec(js);
    if (m) return m[1]!;
  }
  throw new Error(`server action ${name} not found in the chunks of ${page}`);
}

async function callAction(cookie: string, page: string, id: string, args: unknown[], origin = API_URL) {
  const res = await fetch(`${API_URL}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "next-action": id, origin, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify(args),
  });
  return { status: res.status, text: await res.text() };
}

describe("dashboard sign-in", () => {
  test("right password: a session cookie, httpOnly, SameSite=Lax, expiring within 8 hours", async () => {
    const { email } = await userOf("owner");
    const a = await attempt(email.toUpperCase(), PASSWORD);
    assert.equal(a.status, 302);
    assert.equal(new URL(a.location).pathname, "/dashboard");
    assert.ok(a.session, "session cookie set");
    assert.match(a.session!, /HttpOnly/i);
    assert.match(a.session!, /SameSite=Lax/i);
    const expires = Date.parse(/Expires=([^;]+)/i.exec(a.session!)![1]!);
    assert.ok(expires > Date.now() + 7.9 * 3600_000 && expires <= Date.now() + 8 * 3600_000 + 60_000, `expires ${new Date(expires).toISOString()}`);
    const page = await fetch(`${API_URL}/dashboard`, { headers: { cookie: a.cookie! }, redirect: "manual" });
    assert.equal(page.status, 200);
  });

  test("wrong password and unknown email: the same refusal, no session", async () => {
    const { email } = await userOf("owner");
    for (const [e, p] of [[email, "wrong-password-123"], ["nobody@example.test", PASSWORD]]) {
      const a = await attempt(e!, p!);
      assert.equal(a.session, undefined);
      assert.match(a.location, /error=CredentialsSignin/);
      assert.match(a.location, /code=credentials/);
    }
  });

  test(`after ${MAX_PER_EMAIL} failures the email is throttled, even with the right password`, async () => {
    const { email } = await userOf("owner");
    for (let i = 0; i < MAX_PER_EMAIL; i++) {
      const a = await attempt(email, `wrong-${i}-password`);
      assert.match(a.location, /code=credentials/);
    }
    const blocked = await attempt(email, PASSWORD);
    assert.equal(blocked.session, undefined);
    assert.match(blocked.location, /code=throttled/);
  });

  test(`count before check: 500 wrong passwords sent at once for one email get ${MAX_PER_EMAIL} password checks, not 500 (in-memory throttle)`, async () => {
    const { email } = await userOf("viewer");
    const c = await fetch(`${API_URL}/api/auth/csrf`);
    const { csrfToken } = (await c.json()) as { csrfToken: string };
    const jar = cookiesOf(c).join("; ");
    const codes = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const res = await fetch(`${API_URL}/api/auth/callback/credentials`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar },
          body: new URLSearchParams({ email, password: `guess-${i}-wrong`, csrfToken, callbackUrl: `${API_URL}/dashboard` }),
        });
        return new URL(res.headers.get("location") ?? "http://x/").searchParams.get("code");
      }),
    );
    const checked = codes.filter((code) => code === "credentials").length;
    assert.equal(checked + codes.filter((code) => code === "throttled").length, 500);
    assert.ok(checked >= 1 && checked <= MAX_PER_EMAIL, `${checked} of 500 had their password checked`);
    // The right password is refused too until the window ends.
    assert.match((await attempt(email, PASSWORD)).location, /code=throttled/);
  });

  test("no CSRF token: refused, no session", async () => {
    const { email } = await userOf("owner");
    const a = await attempt(email, PASSWORD, { csrf: false });
    assert.equal(a.session, undefined);
    assert.match(a.location, /error=MissingCSRF/);
  });

  test("a forged or missing session cookie gets the sign-in page, and the data routes a 401", async () => {
    for (const cookie of ["", "authjs.session-token=forged.value.here"]) {
      const page = await fetch(`${API_URL}/dashboard/payments`, { headers: { cookie }, redirect: "manual" });
      assert.equal(page.status, 307);
      assert.equal(new URL(page.headers.get("location")!, API_URL).pathname, "/dashboard/sign-in");
      const data = await fetch(`${API_URL}/dashboard/api/payments`, { headers: { cookie } });
      assert.equal(data.status, 401);
      assert.equal(((await data.json()) as any).error.code, "missing_credentials");
    }
  });
});

describe("dashboard server actions", () => {
  test("a cross-site call is refused by the origin check; the same call from the dashboard's origin works", async () => {
    const { m, email } = await userOf("owner");
    const cookie = await signedIn(email);
    const hook = await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["*"] } });
    const page = `/dashboard/webhooks/${hook.body.id}`;
    const id = await actionId(cookie, page, "updateWebhookAction");
    const forged = await callAction(cookie, page, id, [hook.body.id, { status: "disabled" }], "https://evil.example");
    assert.notEqual(forged.status, 200);
    assert.equal((await api(`/webhooks/${hook.body.id}`, { key: m.sandbox.secretKey })).body.status, "enabled");
    const ok = await callAction(cookie, page, id, [hook.body.id, { status: "disabled" }]);
    assert.equal(ok.status, 200);
    assert.equal((await api(`/webhooks/${hook.body.id}`, { key: m.sandbox.secretKey })).body.status, "disabled");
  });

  test("a viewer calling the refund and webhook actions directly gets forbidden; nothing changes", async () => {
    const { m, email } = await userOf("viewer");
    const cookie = await signedIn(email);
    const tx = (await api("/payments", { key: m.sandbox.secretKey, body: { amount: 10, paymentMethodId: "sbx_card" } })).body.transactionId;
    await api(`/payments/${tx}/simulate`, { key: m.sandbox.secretKey, body: { action: "paid" } });
    const hook = await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["*"] } });

    // A viewer's pages carry no refund or rotate button, so read the action ids as an owner would see them.
    const owner = `owner-${Math.random().toString(36).slice(2, 10)}@example.test`;
    await createDashboardUser({ merchantId: m.merchantId, email: owner, password: PASSWORD, role: "owner" });
    const ownerCookie = await signedIn(owner);
    const refundId = await actionId(ownerCookie, `/dashboard/payments/${tx}`, "refundAction");
    const rotateId = await actionId(ownerCookie, `/dashboard/webhooks/${hook.body.id}`, "rotateWebhookSecretAction");

    const refund = await callAction(cookie, `/dashboard/payments/${tx}`, refundId, [tx, { amount: "1" }]);
    assert.match(refund.text, /"code":"forbidden"/);
    const rotate = await callAction(cookie, `/dashboard/webhooks/${hook.body.id}`, rotateId, [hook.body.id]);
    assert.match(rotate.text, /"code":"forbidden"/);
    assert.doesNotMatch(rotate.text, /whsec_/);
    assert.equal((await api(`/payments/${tx}`, { key: m.sandbox.secretKey })).body.refundedAmountLocal, 0);

    // The owner's same call goes through.
    const ownerRefund = await callAction(ownerCookie, `/dashboard/payments/${tx}`, refundId, [tx, { amount: "1" }]);
    assert.match(ownerRefund.text, /"ok":true/);
  });

  test("another merchant's payment through a signed-in owner's actions: transaction_not_found, nothing changes", async () => {
    const { m, email } = await userOf("owner");
    const other = await newMerchant();
    const cookie = await signedIn(email);
    const own = (await api("/payments", { key: m.sandbox.secretKey, body: { amount: 10, paymentMethodId: "sbx_card" } })).body.transactionId;
    const theirs = (await api("/payments", { key: other.sandbox.secretKey, body: { amount: 10, paymentMethodId: "sbx_card" } })).body.transactionId;
    const simulateId = await actionId(cookie, `/dashboard/payments/${own}`, "simulateAction");
    const r = await callAction(cookie, `/dashboard/payments/${own}`, simulateId, [theirs, "paid"]);
    assert.match(r.text, /"code":"transaction_not_found"/);
    assert.equal((await api(`/payments/${theirs}`, { key: other.sandbox.secretKey })).body.status, "pending");
  });
});
