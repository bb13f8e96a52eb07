import { config } from "@/lib/platform/config";
import { methods, route, routeNotFound } from "@/lib/platform/http/handler";
import { createSideEffectEndpoint, incrementCounter, readCounter, readSideEffectEndpoint } from "@/lib/test-fixtures/side-effects";

const served = methods({
  POST: route(createSideEffectEndpoint, async ({ auth, body }) => incrementCounter(auth.shop!.id, body)),
  GET: route(readSideEffectEndpoint, async ({ auth, query }) => readCounter(auth.shop?.id ?? "", query.label)),
});

// Without ENABLE_TEST_FIXTURES the path answers exactly like an unknown route.
const gate =
  (m: keyof typeof served) =>
  (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) =>
    config().ENABLE_TEST_FIXTURES
      ? served[m](req, ctx)
      : Promise.resolve(routeNotFound(req));

export const GET = gate("GET");
export const POST = gate("POST");
export const PUT = gate("PUT");
export const PATCH = gate("PATCH");
export const DELETE = gate("DELETE");
