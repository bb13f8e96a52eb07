import { methods, route } from "@/lib/platform/http/handler";
import { replayQrOrderSimulation } from "@/lib/qr/replays";
import { simulateQrOrderEndpoint } from "@/lib/qr/schema";
import { simulateQrOrder } from "@/lib/qr/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateQrOrderEndpoint, async ({ auth, params, body }) => simulateQrOrder(auth, params.id, body.action), { replay: async (ref, { auth }) => replayQrOrderSimulation(auth, ref) }) });
