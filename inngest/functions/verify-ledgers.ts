import { inngest } from "@/inngest/client";
import { verifyLedgers } from "@/lib/jobs/verify-ledgers";

// Ledger verification every 5 minutes: ledgers with new entries (and every ledger every few hours)
// recomputed from their entries; the warnings feed GET /me/balance.
export const verifyLedgersFn = inngest.createFunction({ id: "verify-ledgers", retries: 3, triggers: [{ cron: "*/5 * * * *" }] }, async ({ step }) => {
  const checked = await step.run("verify-ledgers", async () => (await verifyLedgers()).map((c) => ({ merchantId: c.merchantId, environment: c.environment, warnings: c.warnings, entries: c.entries })));
  return { checked };
});
