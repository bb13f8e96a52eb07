import { methods } from "@/lib/platform/http/handler";
import { getPaymentEndpoint } from "@/lib/payments/schema";
import { getHandler } from "../handlers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: getHandler(getPaymentEndpoint) });
