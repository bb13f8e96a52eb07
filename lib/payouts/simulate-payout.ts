// POST /me/payout/send/{id}/simulate (sandbox): the same transitions a provider's webhook
// drives (3.3). Only a processing payout moves; `processing` is a no-op.
import { AppError } from "@/lib/platform/errors";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { completePayout, failPayout } from "@/lib/payouts/transitions";
import { findOwnedPayout } from "@/lib/payouts/list-payouts";
import { presentPayout } from "@/lib/payouts/present";
import type { PayoutContext } from "@/lib/payouts/send-payout";
import type { PAYOUT_SIMULATE_ACTIONS } from "@/lib/payouts/schema";

export async function simulatePayout(auth: PayoutContext, id: string, action: (typeof PAYOUT_SIMULATE_ACTIONS)[number]) {
  // Sandbox only: the gate refuses other environments with the contract's simulate_sandbox_only
  // (lib/platform/auth/policy.ts, simulatePayout) before this runs, for the API and the dashboard alike.
  const p = await findOwnedPayout(auth, id);
  const refuse = (status: string) =>
    new AppError("invalid_request", `Cannot simulate ${action}: the payout is ${status}; only processing payouts move.`, { param: "action", details: { status } });
  if (p.status !== "processing") throw refuse(p.status);
  if (action === "processing") return { payout: presentPayout(p) };
  bindOnNextTransition({ resource: "payout", id: p.id });
  const r = action === "completed" || action === "paid" ? await completePayout(id) : await failPayout(id, action);
  // Checked again under the row lock: a concurrent call may have moved it first.
  if (!r.changed) throw refuse(r.payout.status);
  return { payout: presentPayout(r.payout) };
}
