import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

export const openApiEndpoint = defineEndpoint({
  method: "GET",
  path: "/openapi.json",
  tag: "Meta",
  summary: "This API's OpenAPI 3.1 document",
  auth: "none",
  response: z.record(z.string(), z.unknown()),
  errors: [],
});
