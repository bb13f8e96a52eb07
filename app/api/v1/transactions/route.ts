import { methods } from "@/lib/platform/http/handler";
import { createTransactionEndpoint, listTransactionsEndpoint } from "@/lib/payments/schema";
import { createHandler, listHandler } from "../payments/handlers";

// Legacy alias of /payments: behaves identically.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: createHandler(createTransactionEndpoint as never),
  GET: listHandler(listTransactionsEndpoint as never),
});
