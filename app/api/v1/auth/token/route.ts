import { methods, route } from "@/lib/http/handler";
import { issueTokenEndpoint } from "@/lib/auth/schema";
import { issueTokens } from "@/lib/auth/issue-tokens";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(issueTokenEndpoint, async ({ body }) => issueTokens(body)),
});
