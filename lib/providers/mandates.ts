// Which PSPs hold recurring PIX (Pix Automático) recurrences for our mandates, and their mandate
// connector. Only a PSP that speaks API Pix's `/rec` and `/cobr` (lib/providers/http-psp/pix-automatico.ts):
// - pagosur, the simulated Brazilian PSP (scripts/psp/pix-automatico.ts serves those endpoints).
// - Stripe lists Pix Automático as unavailable; Mercado Pago's and EBANX's published references
//   (lib/providers/*/transformers.ts cite the pages we build from) document no recurrence
//   endpoint we could build from, so none of the real connectors offers mandates yet.
// The first configured one holds a new production mandate; a mandate keeps its PSP for life.
import { AppError } from "@/lib/platform/errors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { HttpPspConnector } from "@/lib/providers/http-psp/connector";
import type { MandateConnector } from "@/lib/providers/types";

export const MANDATE_PROVIDER_CODES = ["pagosur"] as const;

/** The PSP a new production mandate goes to; null when none is configured. */
export function mandateProvider(): string | null {
  return MANDATE_PROVIDER_CODES.find((c) => isProviderConfigured(c)) ?? null;
}

/** The mandate connector of PSP `code` (a mandate's own, configured on this instance). */
export function mandateConnectorFor(code: string): MandateConnector {
  const c = connectorFor(code);
  // connectorFor's instrumented wrapper has the connector as its prototype: instanceof sees through it.
  if (!(MANDATE_PROVIDER_CODES as readonly string[]).includes(code) || !(c instanceof HttpPspConnector)) {
    throw new AppError("service_unavailable", `Provider ${code} holds no recurring PIX mandates.`);
  }
  return c.pix;
}
