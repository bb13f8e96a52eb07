// POST /settlements/run (sandbox) and the dashboard's buttons: the daily batch of the caller's
// merchant, closed now (lib/settlements/close-settlement.ts), by a credential that covers every
// shop whose money it sweeps (lib/settlements/whole-merchant.ts). `waiveMinimum` closes a
// balance under the 50 USD minimum (above the fee), so a tester sees a small batch close on day
// one; the permission (runSettlement) is sandbox-only, so production always keeps the minimum.
import { closeSettlement } from "@/lib/settlements/close-settlement";
import { requireWholeMerchant } from "@/lib/settlements/whole-merchant";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function runSettlement(auth: Pick<AuthContext, "merchant" | "shop" | "environment">, input: { waiveMinimum?: boolean } = {}) {
  await requireWholeMerchant(auth);
  return closeSettlement(auth, { periodTo: new Date(), waiveMinimum: input.waiveMinimum === true });
}
