// Dashboard accounts in Debian's Chromium (the desktop project): two-factor enrollment with codes
// computed here from the secret the page shows, sign-in with password + code, a wrong code and a
// spent recovery code refused; the team (a one-time invite link, the invitee's own password, role
// change and removal ending sessions, the last owner kept); a password change; and the security
// log that records all of it. Every page is screenshotted and scanned with axe-core.
import { test, expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { PASSWORD, checkPage, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

const codeAt = (secret: string, ms: number) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** Email and password, then the code the form asks for. */
async function signInWithCode(page: Page, email: string, code: string) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Password checks are memory-hard on purpose: on a busy 2-core machine they take seconds.
  await expect(page.getByLabel("Authentication code")).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to your dashboard" })).toBeVisible({ timeout: 20_000 });
}

const overview = (page: Page) => expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 20_000 });

test("two-factor: enroll, sign in with password + code, wrong code refused, a recovery code works once, all in the security log", async ({ page }, info) => {
  test.setTimeout(240_000);
  const m = await newMerchant("totp");
  await signIn(page, m.owner);

  await nav(page, "Security");
  await page.getByRole("link", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of your two-factor secret" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await checkPage(page, info, "two-factor-enroll");

  // A wrong code does not turn it on.
  const enrolledAt = Date.now();
  const right = codeAt(secret, enrolledAt);
  await page.getByLabel("Code from your app").fill(right === "123456" ? "654321" : "123456");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByText("That code is not valid.")).toBeVisible();
  await page.getByLabel("Code from your app").fill(right);
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Two-factor sign-in is on." })).toBeVisible();
  const recovery = await page.getByTestId("recovery-code").allTextContents();
  expect(recovery).toHaveLength(10);
  await checkPage(page, info, "two-factor-recovery-codes");
  await page.getByRole("link", { name: "Continue to the dashboard" }).click();
  await overview(page);
  await signOut(page);

  // Password alone is not enough; a wrong code is refused; the next step's code works (the
  // enrollment spent the current one).
  await signInWithCode(page, m.owner, "000000" === codeAt(secret, Date.now() + 30_000) ? "111111" : "000000");
  await expect(page.getByText("That code is not valid or was used already.")).toBeVisible({ timeout: 20_000 });
  await checkPage(page, info, "sign-in-code");
  await page.getByLabel("Authentication code").fill(codeAt(secret, Math.max(Date.now(), enrolledAt + 30_000)));
  await page.getByRole("button", { name: "Sign in" }).click();
  await overview(page);
  await signOut(page);

  // A recovery code works once.
  await signInWithCode(page, m.owner, recovery[0]!);
  await overview(page);
  await signOut(page);
  await signInWithCode(page, m.owner, recovery[0]!);
  await expect(page.getByText("That code is not valid or was used already.")).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Authentication code").fill(recovery[1]!);
  await page.getByRole("button", { name: "Sign in" }).click();
  await overview(page);

  await nav(page, "Security");
  await expect(page.getByRole("link", { name: "Manage two-factor sign-in" })).toBeVisible();
  const events = page.getByTestId("security-event");
  const sentences: Array<[string, string]> = [["two_factor.enabled", "Turned on two-factor sign-in"], ["sign_in.succeeded", "Signed in"], ["sign_in.failed", "Failed to sign in"], ["recovery_code.used", "Signed in with a recovery code"]];
  for (const [type, words] of sentences) {
    await expect(events.and(page.locator(`[data-type="${type}"]`)).first().locator(`[data-tech="${type}"]`)).toHaveText(words);
  }
  await checkPage(page, info, "security");
});

test("team: invite by one-time link (a double click invites once), the invitee sets their password, role change and removal end their session; the last owner stays", async ({ page, browser }, info) => {
  test.setTimeout(240_000);
  const m = await newMerchant("team");
  await signIn(page, m.owner);
  await nav(page, "Team");
  await expect(page.getByTestId("team-row")).toHaveCount(1);

  const invitee = `dev-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  await page.getByLabel("Email").fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  // A double click: one member, the link shown, no "already exists".
  await page.getByRole("button", { name: "Invite" }).dblclick();
  const link = (await page.getByTestId("invite-link").textContent({ timeout: 20_000 }))!.trim();
  expect(link).toMatch(/\/dashboard\/invite\/[0-9A-Za-z]{32}$/);
  await expect(page.getByText("already exists")).toHaveCount(0);
  const row = page.locator(`[data-testid="team-row"][data-email="${invitee}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Invited");
  await checkPage(page, info, "team");

  // The invitee opens the link and chooses their password; the link then is spent.
  const other = await browser.newContext();
  const theirs = await other.newPage();
  // The form's posts carry our origin (a no-referrer page would send `Origin: null`); the token
  // still leaves in no referrer to another origin.
  // allHeaders(): headers() leaves out what the network stack adds, Origin among them.
  const origins: Array<Promise<string | null>> = [];
  theirs.on("request", (r) => r.method() === "POST" && origins.push(r.allHeaders().then((h) => h["origin"] ?? null)));
  await theirs.goto(new URL(link).pathname);
  await expect(theirs.getByRole("heading", { level: 1, name: "Join the team" })).toBeVisible();
  await expect(theirs.locator('meta[name="referrer"]')).toHaveAttribute("content", "same-origin");
  await expect(theirs.getByText(invitee)).toBeVisible();
  await theirs.getByLabel("New password").fill("short");
  await theirs.getByLabel("Repeat the password").fill("short");
  await theirs.getByRole("button", { name: "Set my password" }).click();
  await expect(theirs.getByText("at least 10 characters").first()).toBeVisible({ timeout: 20_000 });
  const chosen = "their own long password 42";
  await theirs.getByLabel("New password").fill(chosen);
  await theirs.getByLabel("Repeat the password").fill(chosen);
  await theirs.getByRole("button", { name: "Set my password" }).click();
  await expect(theirs.getByText("Your password is set.")).toBeVisible({ timeout: 20_000 });
  expect(origins.length).toBeGreaterThan(0);
  const sent = await Promise.all(origins);
  expect(sent.every((o) => o === new URL(theirs.url()).origin), `${sent}`).toBe(true);
  await checkPage(theirs, info, "invite-accepted");
  await theirs.getByRole("link", { name: "Sign in" }).click();
  await expect(theirs.getByLabel("Email")).toHaveValue(invitee);
  await theirs.getByLabel("Password").fill(chosen);
  await theirs.getByRole("button", { name: "Sign in" }).click();
  await expect(theirs.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 20_000 });
  await expect(theirs.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name: "Team" })).toHaveCount(0);
  const spent = await other.newPage();
  await spent.goto(new URL(link).pathname);
  await expect(spent.getByText("This invite link is not valid any more")).toBeVisible();
  await spent.close();

  // Role change: the member's session ends (it was signed in with the old role's rights).
  await page.reload();
  await expect(row).not.toContainText("Invited");
  await row.getByLabel(`Role of ${invitee}`).selectOption("viewer");
  await expect(row.getByLabel(`Role of ${invitee}`)).toHaveValue("viewer");
  await page.reload();
  await expect(row.getByLabel(`Role of ${invitee}`)).toHaveValue("viewer");
  await theirs.reload();
  await expect(theirs.getByRole("heading", { level: 1, name: "Sign in to your dashboard" })).toBeVisible();
  await signIn(theirs, invitee, { password: chosen });

  // The last owner cannot demote themselves.
  const me = page.locator(`[data-testid="team-row"][data-email="${m.owner}"]`);
  await me.getByLabel(`Role of ${m.owner}`).selectOption("developer");
  await expect(page.getByText("The last owner cannot be demoted.")).toBeVisible();
  await page.reload();
  await expect(me.getByLabel(`Role of ${m.owner}`)).toHaveValue("owner");

  // Removal ends the invitee's session at once.
  page.once("dialog", (d) => d.accept());
  await row.getByRole("button", { name: `Remove ${invitee}` }).click();
  await expect(row).toHaveCount(0);
  await theirs.reload();
  await expect(theirs.getByRole("heading", { level: 1, name: "Sign in to your dashboard" })).toBeVisible();
  await other.close();

  await nav(page, "Security");
  const events = page.getByTestId("security-event");
  // Each event in a sentence, its API name in the tooltip (components/dashboard/security-words.ts).
  const sentences: Array<[string, string]> = [["team.invited", "Invited a team member"], ["team.invite_accepted", "Accepted an invitation to the team"], ["team.role_changed", "Changed a team member's role"], ["team.removed", "Removed a team member"]];
  for (const [type, words] of sentences) {
    const row = page.locator(`[data-testid="security-event"][data-type="${type}"]`).first();
    await expect(row).toContainText(words);
    await expect(row.locator(`[data-tech="${type}"]`)).toHaveText(words);
  }
  await expect(events.first()).toHaveAttribute("data-type", "team.removed");
  await expect(events.filter({ hasText: "Changed a team member's role" }).first()).toContainText(`${invitee}: Developer → Viewer`);
  await expect(page.locator("main")).not.toContainText("team.");
});

test("password: changing it keeps this session, ends the other one, and the new password signs in", async ({ page, browser }, info) => {
  test.setTimeout(180_000);
  const m = await newMerchant("password");
  await signIn(page, m.owner);
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, m.owner);

  await nav(page, "Security");
  await page.getByRole("link", { name: "Change your password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your password" })).toBeVisible();
  await page.getByLabel("Current password").fill("not my password at all");
  await page.getByLabel("New password", { exact: true }).fill("a brand new password 7");
  await page.getByLabel("Repeat the new password").fill("a brand new password 7");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("a brand new password 7");
  await page.getByLabel("Repeat the new password").fill("a brand new password 7");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password is changed.")).toBeVisible({ timeout: 20_000 });
  await checkPage(page, info, "password");

  // This session goes on; the other one has ended.
  await nav(page, "Overview");
  await elsewhere.reload();
  await expect(elsewhere.getByRole("heading", { level: 1, name: "Sign in to your dashboard" })).toBeVisible();
  await signIn(elsewhere, m.owner, { password: "a brand new password 7" });
  await other.close();
});
