import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { errorResponse, methods, route } from "@/lib/http/handler";
import { newId } from "@/lib/ids";
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
      : Promise.resolve(errorResponse(new AppError("route_not_found", `No endpoint at ${req.method} ${new URL(req.url).pathname}. See /api/v1/openapi.json.`), newId("request")).response);

export const GET = gate("GET");
export const POST = gate("POST");
export const PUT = gate("PUT");
export const PATCH = gate("PATCH");
export const DELETE = gate("DELETE");
