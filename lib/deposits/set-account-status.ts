// Operator action (3.4): disable or re-enable a deposit account. No API operation changes an
// account's status; a disabled account is still returned by get-or-create and still accepts
// transfers, it only tells the merchant to stop handing the CLABE out.
import { db } from "@/lib/platform/db";

export async function setDepositAccountStatus(accountId: string, status: "active" | "disabled") {
  // A row still waiting for its CLABE is not an account an operator can switch on (P2025: not found).
  const a = await db().depositAccount.update({ where: { id: accountId, status: { not: "provisioning" } }, data: { status }, select: { id: true, status: true, clabe: true } });
  return { accountId: a.id, status: a.status, clabe: a.clabe };
}
