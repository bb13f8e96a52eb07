// GET /qr/{token}/qr.svg: the order's QR code as an image (the order's qrImageUrl). Public, like
// the counter page: the token is the credential, and the image says no more than the code.
import { publicQrOrder } from "@/lib/qr/orders";
import { qrSvg } from "@/lib/qr/image";

export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const order = await publicQrOrder(token);
  if (!order) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  return new Response(await qrSvg(order.qrPayload), {
    headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "private, max-age=60", "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" },
  });
}
