// Dashboard sign-in (Auth.js / next-auth v5): email + password of dashboard users created by the
// operator CLI (argon2id hashes), JWT sessions in an httpOnly same-site cookie that expire after
// SESSION_MAX_AGE_S. Failed attempts are throttled per email and per client address. The session
// carries only the user id: every request reloads the user, its role and its merchant
// (server/dashboard.ts -> lib/auth/gate.ts), so a removed user or a suspended merchant is out at once.
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { clientAddress } from "@/lib/http/handler";
import { pinnedAuthUrl } from "@/lib/auth/auth-url";
import { verifyCredentials } from "@/lib/dashboard/users";
import { isThrottled, recordFailure, recordSuccess } from "@/lib/dashboard/throttle";

/** Idle expiry: a session unused for 8 hours ends (each use slides it, at most every 15 min). */
export const SESSION_MAX_AGE_S = 8 * 3600;
/** Absolute expiry: 24 hours after signing in, whatever the activity. */
export const SESSION_ABSOLUTE_S = 24 * 3600;

export class ThrottledSignIn extends CredentialsSignin {
  code = "throttled";
}

const credentials = z.object({ email: z.string().trim().min(3).max(254), password: z.string().min(1).max(200) });

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: config().AUTH_SECRET,
  // Pinned to APP_URL (lib/auth/auth-url.ts): Auth.js builds its URLs from AUTH_URL, never from
  // the request's Host or X-Forwarded-Host; secure cookies whenever APP_URL is https.
  ...pinnedAuthUrl(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S, updateAge: 15 * 60 },
  // Auth.js' own logging goes to our structured logs; a refused sign-in is routine, not an error.
  logger: {
    error(error) {
      if (error.name === "CredentialsSignin") log.info({ code: (error as CredentialsSignin).code }, "dashboard sign-in refused");
      else log.error({ err: { name: error.name, message: error.message } }, "auth error");
    },
    warn(code) {
      log.warn({ code }, "auth warning");
    },
    debug() {},
  },
  pages: { signIn: "/dashboard/sign-in", error: "/dashboard/sign-in" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const ip = clientAddress(request); // the API's own notion of the client address
        if (await isThrottled(email, ip)) throw new ThrottledSignIn();
        const user = await verifyCredentials(email, password);
        if (!user) {
          await recordFailure(email, ip);
          return null;
        }
        await recordSuccess(email);
        return { id: user.id, email: user.email };
      },
    }),
  ],
  callbacks: {
    // After sign-in or sign-out, only ever land inside the dashboard (no open redirect).
    redirect({ url, baseUrl }) {
      const target = new URL(url, baseUrl);
      return target.origin === baseUrl && target.pathname.startsWith("/dashboard") ? target.toString() : `${baseUrl}/dashboard`;
    },
    jwt({ token, user }) {
      if (user?.id) {
        token.uid = user.id;
        token.signedInAt = Date.now();
      }
      if (typeof token.signedInAt !== "number" || Date.now() - token.signedInAt > SESSION_ABSOLUTE_S * 1000) return null;
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return session;
    },
  },
}));
