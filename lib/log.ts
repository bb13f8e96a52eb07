// Structured logs: one JSON line per event on stdout. Secrets never reach a log line: callers
// pass only the fields named here, and the redaction list catches anything that slips through.
import pino from "pino";
import { config } from "@/lib/config";
import { singleton } from "@/lib/singleton";

export const log = singleton("log", () =>
  pino({
    level: config().LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ["authorization", "*.authorization", "secretKey", "*.secretKey", "refreshToken", "*.refreshToken", "password", "*.password", "secret", "*.secret", "apiKey", "*.apiKey"],
      censor: "[redacted]",
    },
  }),
);
