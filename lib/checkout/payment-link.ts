// GET /c/{txId}'s lookup: the payment page a transaction's hosted-checkout link leads to. The
// transaction id is the link's only credential (like the page itself); a malformed id reads as absent.
import { db } from "@/lib/platform/db";
import { TX_ID } from "@/lib/payments/ids";

export async function paymentPageOf(txId: string): Promise<string | null> {
  if (!TX_ID.test(txId)) return null;
  const tx = await db().transaction.findUnique({ where: { id: txId }, select: { paymentFormUrl: true } });
  return tx?.paymentFormUrl ?? null;
}
