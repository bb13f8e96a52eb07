import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { installmentsShown } from "@/lib/installments/schema";

export const METHOD_SLUGS = ["card", "debit", "bank_transfer", "wire", "spei", "pix", "oxxo", "boleto", "voucher", "online_payment", "applepay", "googlepay", "crypto"] as const;
export const CHANNELS = ["ONLINE", "CASH", "CREDIT_CARD"] as const;

export const paymentMethodEntry = z
  .object({
    paymentMethodId: z.string(),
    method: z.enum(METHOD_SLUGS),
    methodLabel: z.string(),
    name: z.string(),
    country: z.string().describe("ISO-2"),
    countryIso3: z.string(),
    channel: z.enum(CHANNELS),
    imageUrl: z.string().describe("Legacy relative URL; prefer iconUrl"),
    iconUrl: z.string().describe("Absolute URL; always resolves"),
    currencies: z.array(z.string()),
    currencyLimits: z.array(z.object({ currency: z.string(), min: z.number(), max: z.number() })),
    minTxUsd: z.number().nullable(),
    maxTxUsd: z.number().nullable(),
    fee: z.object({ percent: z.number(), flat: z.number(), currency: z.string() }).describe("The rail's own fee (provider percent, network flat fee in USD); the platform fee comes on top"),
    expiry: z.object({ defaultMinutes: z.number().int(), maxMinutes: z.number().int() }).describe("How long a payment waits for the buyer by default, and the most `expiresInMinutes` may ask"),
    enabled: z.boolean(),
    online: z.boolean(),
    routable: z.boolean(),
    unroutableReason: z.string().nullable(),
    installments: z
      .object({
        counts: z.array(z.number().int()).describe("The counts the shop's plan offers (1, paid at once, is always possible)"),
        minInstallment: z.number().describe("The smallest installment, in `currency`"),
        currency: z.string(),
        paidBy: z.enum(["merchant", "buyer"]).describe("merchant: sem juros / meses sin intereses, the shop pays a fee; buyer: the buyer pays interest"),
        options: z
          .array(installmentsShown)
          .optional()
          .describe("With the `amount` query: each count open to that amount (its installment at least the minimum), priced"),
      })
      .optional()
      .describe("Card rails of Brazil and Mexico: the shop's installment plan"),
  })
  .meta({ id: "PaymentMethod" });

export const listPaymentMethodsQuery = z.object({
  country: z.string().max(3).optional().describe("ISO-2 or ISO-3"),
  channel: z.enum(CHANNELS).optional(),
  method: z.enum(METHOD_SLUGS).optional(),
  amount: z.coerce.number().positive().optional().describe("A price in each rail's own currency (BRL for Brazil's cards, MXN for Mexico's): the installment plans list every count open to it, priced"),
});

export const listPaymentMethodsResponse = z
  .object({
    shop: z.object({ id: z.string(), name: z.string() }),
    environment: z.enum(["sandbox", "production"]),
    filters: z.object({ country: z.string().nullable(), channel: z.string().nullable(), method: z.string().nullable() }),
    count: z.number().int(),
    totalAvailable: z.number().int(),
    routableCount: z.number().int(),
    methods: z.array(paymentMethodEntry),
  })
  .meta({ id: "PaymentMethodList" });

export const listPaymentMethodsEndpoint = defineEndpoint({
  method: "GET",
  path: "/payment-methods",
  tag: "Payment methods",
  summary: "The shop's catalog of payment methods",
  description: "Not paginated. In sandbox the test rails (sbx_*) are always listed first. Offer only entries with `routable: true`.",
  auth: "any",
  permission: "identify",
  shop: "required",
  query: listPaymentMethodsQuery,
  response: listPaymentMethodsResponse,
  errors: [],
});
