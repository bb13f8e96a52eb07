import { inngest } from "@/inngest/client";
import { expireCheckoutSessions } from "@/lib/jobs/expire-checkout-sessions";

// Checkout session expiry and purge, every 10 minutes (idempotent; lookups enforce the TTL themselves).
export const expireCheckoutSessionsFn = inngest.createFunction({ id: "expire-checkout-sessions", retries: 3, triggers: [{ cron: "*/10 * * * *" }] }, async ({ step }) => {
  return step.run("expire-and-purge", () => expireCheckoutSessions());
});
