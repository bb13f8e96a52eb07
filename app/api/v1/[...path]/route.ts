// Anything under /api/v1 that no route serves: the JSON 404 of the error contract.
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/handler";
import { newId } from "@/lib/ids";

async function notFound(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  return errorResponse(new AppError("route_not_found", `No endpoint at ${req.method} ${path}. See /api/v1/openapi.json.`), newId("request")).response;
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
