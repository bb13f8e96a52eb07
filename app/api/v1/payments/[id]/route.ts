import { methods } from "@/lib/http/handler";
import { getPaymentEndpoint } from "@/lib/payments/schema";
import { getHandler } from "../handlers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: getHandler(getPaymentEndpoint) });
