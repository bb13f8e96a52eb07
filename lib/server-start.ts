// Server start-up: refuse to serve with an invalid configuration (e.g. production without real
// secrets). Background job runners attach here as well.
import { config, ConfigError } from "@/lib/config";

export async function onServerStart() {
  try {
    config();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (config().JOBS_DRIVER === "local" && config().DATABASE_URL) {
    const { startTicker } = await import("@/lib/jobs/ticker");
    startTicker();
  }
}
