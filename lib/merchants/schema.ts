import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

const environment = z.enum(["sandbox", "production"]);

export const pingResponse = z
  .object({
    ok: z.boolean(),
    environment,
    keyKind: z.enum(["secret", "publishable"]),
    keyId: z.string().describe("The credential's key, masked"),
    apiVersion: z.string(),
    merchant: z.object({ id: z.string(), name: z.string() }),
    timestamp: z.iso.datetime(),
  })
  .meta({ id: "Ping" });

export const merchantIdentity = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    industry: z.string().nullable(),
    tier: z.enum(["starter", "standard", "premium"]),
    trustScore: z.number().int().min(0).max(1000),
    environment,
    capabilities: z.object({
      checkout: z.boolean(),
      directCharge: z.boolean(),
      refunds: z.boolean(),
      webhooks: z.boolean(),
      crypto: z.array(z.string()),
      methods: z.array(z.string()),
    }),
  })
  .meta({ id: "MerchantIdentity" });

export const pingEndpoint = defineEndpoint({
  method: "GET",
  path: "/ping",
  tag: "Identity",
  summary: "Check a credential",
  description: "Answers who the credential belongs to and which environment it acts in. No side effects.",
  auth: "any",
  permission: "identify",
  response: pingResponse,
  errors: [],
});

export const meEndpoint = defineEndpoint({
  method: "GET",
  path: "/me",
  tag: "Identity",
  summary: "The merchant behind the credential",
  auth: "secret",
  permission: "read",
  response: merchantIdentity,
  errors: [],
});
