// Dashboard sign-in (Auth.js / next-auth v5): email + password of dashboard users created by the
// operator CLI (argon2id hashes), JWT sessions in an httpOnly same-site cookie that expire after
// SESSION_MAX_AGE_S. Failed attempts are throttled per email and per client address. The session
// carries the user id, the user's session version it was signed in under, and whether its second
// factor was given (lib/accounts/session-grant.ts); every request reloads the user, its role, its
// version and its merchant (server/dashboard.ts -> lib/platform/auth/gate.ts), so a removed user, a bumped
// version (two-factor, password or role changed) or a suspended merchant is out at once.
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { clientAddress } from "@/lib/platform/http/handler";
import { pinnedAuthUrl } from "@/lib/platform/auth/auth-url";
import { signInDashboardUser } from "@/lib/accounts/sign-in-dashboard-user";
import { readSessionGrant } from "@/lib/accounts/session-grant";

/** Idle expiry: a session unused for 8 hours ends (each use slides it, at most every 15 min). */
export const SESSION_MAX_AGE_S = 8 * 3600;
/** Absolute expiry: 24 hours after signing in, whatever the activity. */
export const SESSION_ABSOLUTE_S = 24 * 3600;

export class ThrottledSignIn extends CredentialsSignin {
  code = "throttled";
}
/** The password was right; the user has two-factor sign-in on and sent no code (yet). */
export class CodeRequiredSignIn extends CredentialsSignin {
  code = "code_required";
}
export class CodeInvalidSignIn extends CredentialsSignin {
  code = "code_invalid";
}

/** What a sign-in hands the session: the user, the version it is signed in under, and whether a second factor was given. */
type SignedInUser = { id: string; email: string; sessionVersion: number; secondFactor: boolean };

const credentials = z.object({ email: z.string().trim().min(3).max(254), password: z.string().min(1).max(200), code: z.string().max(32).optional() });

export const { handlers, auth, signIn, signOut, unstable_update: updateSession } = NextAuth(() => ({
  secret: config().AUTH_SECRET,
  // Pinned to APP_URL (lib/platform/auth/auth-url.ts): Auth.js builds its URLs from AUTH_URL, never from
  // the request's Host or X-Forwarded-Host; secure cookies whenever APP_URL is https.
  ...pinnedAuthUrl(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S, updateAge: 15 * 60 },
  // Auth.js' own logging goes to our structured logs; a refused sign-in is routine, not an error.
  logger: {
    error(error) {
      // By `type`, not `name`: the production build minifies class names (a wrong password was logged as an error).
      if ((error as { type?: string }).type === "CredentialsSignin") log.info({ code: (error as CredentialsSignin).code }, "dashboard sign-in refused");
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
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Authentication code", type: "text" } },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password, code } = parsed.data;
        const ip = clientAddress(request); // the API's own notion of the client address
        const result = await signInDashboardUser({ email, password, code, ip });
        if (result.ok) return { id: result.user.id, email: result.user.email, sessionVersion: result.sessionVersion, secondFactor: result.secondFactor } as SignedInUser;
        if (result.reason === "throttled") throw new ThrottledSignIn();
        if (result.reason === "code_required") throw new CodeRequiredSignIn();
        if (result.reason === "code_invalid") throw new CodeInvalidSignIn();
        return null;
      },
    }),
  ],
  callbacks: {
    // After sign-in or sign-out, only ever land inside the dashboard (no open redirect).
    redirect({ url, baseUrl }) {
      const target = new URL(url, baseUrl);
      return target.origin === baseUrl && target.pathname.startsWith("/dashboard") ? target.toString() : `${baseUrl}/dashboard`;
    },
    jwt({ token, user, trigger, session }) {
      if (user?.id) {
        token.uid = user.id;
        token.signedInAt = Date.now();
        token.sv = (user as SignedInUser).sessionVersion ?? 0;
        token.mfa = (user as SignedInUser).secondFactor === true;
      }
      // The session that bumped its user's version continues, only with a grant the server signed
      // (a client can post anything to the update endpoint).
      if (trigger === "update") {
        const granted = readSessionGrant((session as { grant?: unknown } | undefined)?.grant, token.uid);
        if (granted) {
          token.sv = granted.version;
          token.mfa = granted.secondFactor;
        }
      }
      if (typeof token.signedInAt !== "number" || Date.now() - token.signedInAt > SESSION_ABSOLUTE_S * 1000) return null;
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return Object.assign(session, { sessionVersion: typeof token.sv === "number" ? token.sv : 0, secondFactor: token.mfa === true });
    },
  },
}));
