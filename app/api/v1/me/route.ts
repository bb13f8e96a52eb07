import { methods, route } from "@/lib/platform/http/handler";
import { meEndpoint } from "@/lib/merchants/schema";
import { merchantIdentity } from "@/lib/merchants/get-identity";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(meEndpoint, async ({ auth }) => merchantIdentity(auth)),
});
