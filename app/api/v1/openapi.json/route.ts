import { config } from "@/lib/platform/config";
import { methods, route } from "@/lib/platform/http/handler";
import { openApiEndpoint } from "@/lib/openapi/schema";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { singleton } from "@/lib/platform/singleton";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(openApiEndpoint, async () => singleton("openapi-document", () => buildOpenApiDocument(config().APP_URL))),
});
