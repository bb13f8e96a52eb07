// Anything under /api/v1 that no route serves: the JSON 404 of the error contract.
import { routeNotFound } from "@/lib/platform/http/handler";

async function notFound(req: Request): Promise<Response> {
  return routeNotFound(req);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
