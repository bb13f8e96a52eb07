// GET /c/{txId}: the hosted-checkout link of a transaction; a 307 to its payment page. A
// `locale` follows the buyer onto our own pages (the sandbox provider's); it is never sent to
// another host.
import { config } from "@/lib/platform/config";
import { paymentPageOf } from "@/lib/checkout/payment-link";

export async function GET(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  const page = await paymentPageOf(txId);
  if (!page) return new Response("This payment link is not valid.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const target = new URL(page);
  const locale = new URL(req.url).searchParams.get("locale");
  if (locale && target.origin === new URL(config().APP_URL).origin) target.searchParams.set("locale", locale);
  return new Response(null, { status: 307, headers: { location: target.toString(), "cache-control": "no-store" } });
}
