import { methods, route } from "@/lib/platform/http/handler";
import { simulatePaymentEndpoint } from "@/lib/payments/schema";
import { replaySimulation, simulatePayment } from "@/lib/outcomes/simulate-payment";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(simulatePaymentEndpoint, async ({ auth, params, body }) => simulatePayment(auth, params.id, body.action), { replay: async (_ref, { auth, params, body }) => replaySimulation(auth, params.id, body.action) }),
});
