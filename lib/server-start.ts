// Server start-up: refuse to serve with an invalid configuration (e.g. production without real
// secrets). Background job runners attach here as well.
import { config, ConfigError } from "@/lib/config";

export function onServerStart() {
  try {
    config();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
