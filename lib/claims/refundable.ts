// What of a payment can still be refunded: captured, not refunded yet, not being refunded (a
// pending refund), not held by an open or lost chargeback or an open PIX MED claim. The refund use case checks a request
// against it inside its transaction; the dashboard shows it (and checks the form against it
// before asking to confirm), so both say the same number.
import type { Prisma } from "@/lib/generated/prisma/client";

/** Claims whose amount is no longer refundable while they stand. */
// A lost MED claim is not here: its amount went back to the payer and counts in refundedLocal.
export const HOLDING_CLAIMS = { OR: [{ kind: "user_dispute", status: "pending" }, { kind: "chargeback", status: { in: ["open", "lost"] } }, { kind: "pix_med", status: "open" }] } satisfies Prisma.ClaimWhereInput;

type ClaimReader = { claim: { aggregate: (args: { where: Prisma.ClaimWhereInput; _sum: { amountLocal: true } }) => Promise<{ _sum: { amountLocal: bigint | null } }> } };

/** Local minor units; never below zero. */
export async function refundableLocal(client: ClaimReader, t: { id: string; amountLocal: bigint; refundedLocal: bigint }): Promise<bigint> {
  const held = await client.claim.aggregate({ where: { transactionId: t.id, ...HOLDING_CLAIMS }, _sum: { amountLocal: true } });
  const remaining = t.amountLocal - t.refundedLocal - (held._sum.amountLocal ?? 0n);
  return remaining > 0n ? remaining : 0n;
}
