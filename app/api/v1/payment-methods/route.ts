import { methods, route } from "@/lib/platform/http/handler";
import { listPaymentMethodsEndpoint } from "@/lib/catalog/schema";
import { listPaymentMethods } from "@/lib/catalog/list-payment-methods";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listPaymentMethodsEndpoint, async ({ auth, query }) => listPaymentMethods(auth, query)) });
