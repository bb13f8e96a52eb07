import { methods, route } from "@/lib/platform/http/handler";
import { pingEndpoint } from "@/lib/merchants/schema";
import { ping } from "@/lib/merchants/get-identity";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(pingEndpoint, async ({ auth }) => ping(auth)),
});
