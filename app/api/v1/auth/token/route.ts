import { methods, route } from "@/lib/platform/http/handler";
import { issueTokenEndpoint } from "@/lib/platform/auth/schema";
import { issueTokens } from "@/lib/platform/auth/issue-tokens";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(issueTokenEndpoint, async ({ body }) => issueTokens(body)),
});
