// Dashboard sessions and server actions over real HTTP, as a browser drives them: sign in through
// Auth.js' own endpoints (CSRF token and all), read a server action's id from the client chunks
// of a page, and call it with the session cookie.
import assert from "node:assert/strict";
import { API_URL } from "./helpers.ts";

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Signs in with email and password; the session cookie ("name=value"). */
export async function signIn(email: string, password: string): Promise<string> {
  const c = await fetch(`${API_URL}/api/auth/csrf`);
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const res = await fetch(`${API_URL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(c).join("; ") },
    body: new URLSearchParams({ email, password, callbackUrl: `${API_URL}/dashboard`, csrfToken }),
  });
  const session = res.headers.getSetCookie().find((s) => /session-token=/.test(s));
  assert.ok(session, `no session cookie: ${res.status} ${res.headers.get("location")}`);
  return session.split(";")[0]!;
}

/** Finds server action ids by name in the client chunks of dashboard pages (as the browser gets them). */
export function actionFinder(cookie: string) {
  const chunks = new Map<string, Promise<string>>();
  const js = (src: string) => {
    if (!chunks.has(src)) chunks.set(src, fetch(`${API_URL}${src}`).then((r) => r.text()));
    return chunks.get(src)!;
  };
  return async function find(name: string, pages: string[]): Promise<{ id: string; page: string }> {
    for (const page of pages) {
      const html = await (await fetch(`${API_URL}${page}`, { headers: { cookie } })).text();
      for (const src of [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!)) {
        const m = new RegExp(`"([0-9a-f]{40,})"[^"]{0,200}"${name}"`).exec(await js(src));
        if (m) return { id: m[1]!, page };
      }
    }
    throw new Error(`server action ${name} not found in the chunks of ${pages.join(", ")}`);
  };
}

/** Calls a server action as the browser would (same origin). The answer is Next's flight text. */
export async function callAction(cookie: string, page: string, id: string, args: unknown[]): Promise<{ status: number; text: string }> {
  const res = await fetch(`${API_URL}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "next-action": id, origin: API_URL, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify(args),
  });
  return { status: res.status, text: await res.text() };
}

/** The `{ok, data | error}` an action returned, read out of the flight text. */
export function actionResult(text: string): { ok: boolean; error?: { code: string; message: string }; data?: any } {
  const m = /\{"ok":(true|false),.*$/m.exec(text);
  assert.ok(m, `no action result in: ${text.slice(0, 300)}`);
  // The result is the rest of its flight line; trailing flight rows start on new lines.
  return JSON.parse(m[0]);
}
