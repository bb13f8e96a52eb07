// Structured logs: one JSON line per event on stdout. Secrets never reach a log line: callers
// pass only the fields named here, and the redaction list catches anything that slips through.
import pino from "pino";
import { trace } from "@opentelemetry/api";
import { config } from "@/lib/platform/config";
import { singleton } from "@/lib/platform/singleton";

const logger = () =>
  singleton("log", () =>
    pino({
      level: config().LOG_LEVEL,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The active trace on every line (empty when tracing is off), to join logs to spans.
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { traceId, spanId };
      },
      redact: {
        paths: ["authorization", "*.authorization", "secretKey", "*.secretKey", "refreshToken", "*.refreshToken", "password", "*.password", "secret", "*.secret", "apiKey", "*.apiKey"],
        censor: "[redacted]",
      },
    }),
  );

// Created on first use, not at import: `next build` imports every route while it collects page
// data, and configuration belongs to the server that runs, not to the build. Methods are bound
// once (a log line per request must not allocate a function).
const bound = new Map<PropertyKey, unknown>();
export const log: pino.Logger = new Proxy({} as pino.Logger, {
  get(_, prop) {
    const l = logger();
    const v = Reflect.get(l, prop, l);
    if (typeof v !== "function") return v;
    let f = bound.get(prop);
    if (!f) bound.set(prop, (f = v.bind(l)));
    return f;
  },
  set(_, prop, value) {
    return Reflect.set(logger(), prop, value);
  },
});
