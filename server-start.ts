// Server start-up (called by instrumentation.ts, the Next server's start hook): refuse to serve with
// an invalid configuration (e.g. production without real secrets), then attach the background
// job runner (the local ticker, or the Inngest driver: the one place that knows it).
import { config, ConfigError } from "@/lib/platform/config";

export async function onServerStart() {
  (await import("@/lib/platform/http/peer-address")).stampPeerAddresses();
  try {
    config();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Each upstream provider's keys, notice secret, host, timeout: malformed means not started.
  const providerErrors = (await import("@/lib/providers/registry")).providerConfigErrors();
  if (providerErrors.length) {
    console.error(`Invalid provider configuration:\n  ${providerErrors.join("\n  ")}`);
    process.exit(1);
  }
  (await import("@/lib/platform/startup-warnings")).logStartupWarnings();
  if (config().JOBS_DRIVER === "local" && config().DATABASE_URL) {
    const { startTicker } = await import("@/lib/jobs/ticker");
    startTicker();
  } else if (config().JOBS_DRIVER === "inngest") {
    (await import("@/inngest/driver")).connectInngestWake();
  }
}
