// Every endpoint of the API, in document order. A route file serves endpoints from this list;
// a test checks that every route file's paths appear in the OpenAPI document.
import type { EndpointDef } from "@/lib/http/endpoint";
import { issueTokenEndpoint, refreshTokenEndpoint } from "@/lib/auth/schema";
import { meEndpoint, pingEndpoint } from "@/lib/merchants/schema";
import { openApiEndpoint } from "@/lib/openapi/schema";

export const ENDPOINTS: EndpointDef[] = [issueTokenEndpoint, refreshTokenEndpoint, pingEndpoint, meEndpoint, openApiEndpoint];
