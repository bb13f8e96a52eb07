// The real providers' connectors by code (Stripe, Mercado Pago, EBANX), each a folder of its own:
// `connector.ts` (the flow) and `transformers.ts` (its wire format, citing the reference pages).
import type { ProviderConfig, RealProviderCode } from "@/lib/providers/registry";
import type { RealConnector } from "@/lib/providers/types";
import { StripeConnector } from "@/lib/providers/stripe/connector";
import { MercadoPagoConnector } from "@/lib/providers/mercadopago/connector";
import { EbanxConnector } from "@/lib/providers/ebanx/connector";

export const REAL_CONNECTORS: Partial<Record<RealProviderCode, (cfg: ProviderConfig) => RealConnector>> = {
  stripe: (cfg) => new StripeConnector(cfg),
  mercadopago: (cfg) => new MercadoPagoConnector(cfg),
  ebanx: (cfg) => new EbanxConnector(cfg),
};
