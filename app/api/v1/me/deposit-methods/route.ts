import { methods, route } from "@/lib/platform/http/handler";
import { listDepositMethodsEndpoint } from "@/lib/deposits/schema";
import { listDepositMethods } from "@/lib/deposits/list-methods";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listDepositMethodsEndpoint, async ({ auth }) => listDepositMethods(auth)) });
