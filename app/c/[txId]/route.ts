// GET /c/{txId}: the hosted-checkout link of a transaction; a 307 to its payment page.
import { db } from "@/lib/db";

export async function GET(_req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  const tx = /^tx_[0-9A-Za-z]{24}$/.test(txId) ? await db().transaction.findUnique({ where: { id: txId }, select: { paymentFormUrl: true } }) : null;
  if (!tx?.paymentFormUrl) return new Response("This payment link is not valid.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(null, { status: 307, headers: { location: tx.paymentFormUrl, "cache-control": "no-store" } });
}
