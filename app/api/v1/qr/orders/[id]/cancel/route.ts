import { methods, route } from "@/lib/platform/http/handler";
import { cancelQrOrderEndpoint } from "@/lib/qr/schema";
import { cancelQrOrder } from "@/lib/qr/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(cancelQrOrderEndpoint, async ({ auth, params }) => cancelQrOrder(auth, params.id)) });
