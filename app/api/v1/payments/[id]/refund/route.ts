import { methods, route } from "@/lib/platform/http/handler";
import { refundPaymentEndpoint } from "@/lib/claims/schema";
import { refundPayment } from "@/lib/claims/refund-payment";
import { replayRefund } from "@/lib/claims/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(refundPaymentEndpoint, async ({ auth, params, body }) => refundPayment(auth, params.id, body), { replay: async (ref, { auth }) => replayRefund(auth, ref) }),
});
