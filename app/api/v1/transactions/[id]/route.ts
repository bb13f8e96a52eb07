import { methods } from "@/lib/platform/http/handler";
import { getTransactionEndpoint } from "@/lib/payments/schema";
import { getHandler } from "../../payments/handlers";

// Legacy alias of /payments/{id}.
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: getHandler(getTransactionEndpoint as never) });
