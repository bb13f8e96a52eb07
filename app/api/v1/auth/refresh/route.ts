import { methods, route } from "@/lib/http/handler";
import { refreshTokenEndpoint } from "@/lib/auth/schema";
import { refreshTokens } from "@/lib/auth/refresh-tokens";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(refreshTokenEndpoint, async ({ body }) => refreshTokens(body)),
});
