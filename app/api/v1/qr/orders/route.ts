import { methods, route } from "@/lib/platform/http/handler";
import { createQrOrderEndpoint, listQrOrdersEndpoint } from "@/lib/qr/schema";
import { createQrOrder, replayQrOrder } from "@/lib/qr/create-order";
import { listQrOrders } from "@/lib/qr/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listQrOrdersEndpoint, async ({ auth, query }) => listQrOrders(auth, query)),
  POST: route(createQrOrderEndpoint, async ({ auth, body }) => createQrOrder(auth, body), { replay: (ref, { auth }) => replayQrOrder(auth, ref.id) }),
});
