import { methods } from "@/lib/platform/http/handler";
import { createPaymentEndpoint, listPaymentsEndpoint } from "@/lib/payments/schema";
import { createHandler, listHandler } from "./handlers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: createHandler(createPaymentEndpoint), GET: listHandler(listPaymentsEndpoint) });
