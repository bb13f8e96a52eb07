// Choices a production deployment may make but should see in its logs at every start.
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";

export function logStartupWarnings(): void {
  const c = config();
  if (c.APP_ENV === "production" && !c.REDIS_URL && c.ALLOW_LOCAL_RATE_LIMITS) {
    log.warn("ALLOW_LOCAL_RATE_LIMITS=1 without REDIS_URL: rate limits and the sign-in throttle are per instance; with N instances a client gets N times the limits");
  }
}
