// GET /c/{txId}/status: the payment's status alone, for the result page's live update.
import { buyerPaymentStatus } from "@/lib/checkout/buyer-payment";

export async function GET(_req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  const status = await buyerPaymentStatus(txId);
  return Response.json(status ? { status } : { error: "not_found" }, { status: status ? 200 : 404, headers: { "cache-control": "no-store" } });
}
