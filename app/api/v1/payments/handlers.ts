// Handlers shared by /payments and its legacy alias /transactions.
import { route } from "@/lib/platform/http/handler";
import { clientIp } from "@/lib/platform/http/client-ip";
import { createPayment } from "@/lib/payments/create-payment";
import { listPaymentsAnswer } from "@/lib/payments/list-payments";
import { getPayment } from "@/lib/payments/get-payment";
import { parseSandboxSimulateHeader } from "@/lib/payments/sandbox-schedule";
import { parseSandboxBehaviourHeader } from "@/lib/payments/sandbox-behaviour";
import { replayPayment } from "@/lib/payments/replays";
import type { createPaymentEndpoint, getPaymentEndpoint, listPaymentsEndpoint } from "@/lib/payments/schema";

export const createHandler = (endpoint: typeof createPaymentEndpoint) =>
  route(endpoint, async ({ auth, body, request }) =>
    createPayment(auth, body, {
      simulate: parseSandboxSimulateHeader(request.headers.get("sandbox-simulate")),
      behaviour: parseSandboxBehaviourHeader(request.headers),
      requestIp: clientIp(request.headers),
    }),
    // Every success inserts the payment, which claims the key (one round trip, not two).
    { replay: async (ref, { auth }) => replayPayment(auth, ref), foldClaim: true },
  );

export const listHandler = (endpoint: typeof listPaymentsEndpoint) => route(endpoint, async ({ auth, query }) => listPaymentsAnswer(auth, query));

export const getHandler = (endpoint: typeof getPaymentEndpoint) => route(endpoint, async ({ auth, params }) => getPayment(auth, params.id));
