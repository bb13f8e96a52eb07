// POST /settlements/run (sandbox) and the dashboard's button: the daily batch of the caller's
// merchant, closed now (lib/settlements/close-settlement.ts), by a credential that covers every
// shop whose money it sweeps (lib/settlements/whole-merchant.ts).
import { closeSettlement } from "@/lib/settlements/close-settlement";
import { requireWholeMerchant } from "@/lib/settlements/whole-merchant";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function runSettlement(auth: Pick<AuthContext, "merchant" | "shop" | "environment">) {
  await requireWholeMerchant(auth);
  return closeSettlement(auth, { periodTo: new Date() });
}
