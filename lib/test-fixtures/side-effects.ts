// A test fixture, served only with ENABLE_TEST_FIXTURES=1 (refused in production): a creating,
// sandbox-only, shop-bound POST whose side effect (a counter in this process) tests can observe.
// It lets the foundation's tests prove idempotency and the auth matrix over real HTTP before
// the business endpoints exist; it is not part of the public API or its OpenAPI document.
import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { singleton } from "@/lib/platform/singleton";
import { AppError } from "@/lib/platform/errors";

const counters = singleton("test-fixture-counters", () => new Map<string, number>());

export const sideEffectBody = z.object({
  label: z.string().min(1).max(100),
  delayMs: z.number().int().min(0).max(2000).optional(),
  nested: z.object({ amount: z.number().positive() }).optional(),
  /** Fail inside the use case, after validation, like a business rule would. */
  fail: z.boolean().optional(),
  /** Throw a plain Error, as a bug would: the answer must be a 500 that leaks nothing. */
  crash: z.boolean().optional(),
});

const sideEffectResult = z.object({ label: z.string(), count: z.number().int(), shopId: z.string() });

export const createSideEffectEndpoint = defineEndpoint({
  method: "POST",
  path: "/test-fixtures/side-effects",
  tag: "Test fixtures",
  summary: "Increment a counter (test fixture)",
  auth: "secret",
  permission: "sandboxFixture",
  shop: "required",
  idempotent: true,
  body: sideEffectBody,
  response: sideEffectResult,
  successStatus: 201,
  errors: [],
  internal: true,
});

export const readSideEffectEndpoint = defineEndpoint({
  method: "GET",
  path: "/test-fixtures/side-effects",
  tag: "Test fixtures",
  summary: "Read a counter (test fixture)",
  auth: "secret",
  permission: "read",
  query: z.object({ label: z.string().min(1) }),
  response: z.object({ label: z.string(), count: z.number().int() }),
  errors: [],
  internal: true,
});

export async function incrementCounter(shopId: string, input: z.infer<typeof sideEffectBody>) {
  if (input.fail) throw new AppError("amount_invalid", "The fixture was asked to fail.");
  if (input.crash) throw new Error("fixture crash: internal detail at /srv/secret/path.ts:42");
  const key = `${shopId}:${input.label}`;
  const count = (counters.get(key) ?? 0) + 1;
  counters.set(key, count);
  if (input.delayMs) await delay(input.delayMs);
  return { label: input.label, count, shopId };
}

export function readCounter(shopId: string, label: string) {
  return { label, count: counters.get(`${shopId}:${label}`) ?? 0 };
}
