// Auth.js trusts the request's Host unless AUTH_URL names the URL. We name it: AUTH_URL is
// APP_URL (an operator's own AUTH_URL on another origin is overridden, the app has one origin),
// so sign-in links, callbacks and redirects can never be pointed at a forged host.
import { config } from "@/lib/platform/config";

export function pinnedAuthUrl(): { trustHost: true; useSecureCookies: boolean } {
  const appUrl = config().APP_URL;
  process.env.AUTH_URL = appUrl;
  delete process.env.NEXTAUTH_URL;
  // trustHost=true is Auth.js' switch for "a URL is configured"; with AUTH_URL set, the request
  // URL's origin is replaced by it before Auth.js reads it.
  return { trustHost: true, useSecureCookies: appUrl.startsWith("https://") };
}
