import { methods, route } from "@/lib/platform/http/handler";
import { getQrOrderEndpoint } from "@/lib/qr/schema";
import { getQrOrder } from "@/lib/qr/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getQrOrderEndpoint, async ({ auth, params }) => getQrOrder(auth, params.id)) });
