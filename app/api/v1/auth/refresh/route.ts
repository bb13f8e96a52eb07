import { methods, route } from "@/lib/platform/http/handler";
import { refreshTokenEndpoint } from "@/lib/platform/auth/schema";
import { refreshTokens } from "@/lib/platform/auth/refresh-tokens";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(refreshTokenEndpoint, async ({ body }) => refreshTokens(body)),
});
