// GET /qr/{token}/status: the order's status alone (and whether it may still change), for the
// counter page's live update.
import { publicQrOrder } from "@/lib/qr/orders";

export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const order = await publicQrOrder(token);
  return Response.json(order ? { status: order.status, live: order.live } : { error: "not_found" }, { status: order ? 200 : 404, headers: { "cache-control": "no-store" } });
}
