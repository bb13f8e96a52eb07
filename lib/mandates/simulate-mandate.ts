// POST /mandates/{id}/simulate (sandbox): what the payer's bank app does in production: authorize
// or reject a pending mandate, or cancel an active one on the payer's side. The same transitions
// a provider's notice would drive; the request's Idempotency-Key binds to the change it makes.
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { findOwnedMandate } from "@/lib/mandates/find";
import { changeMandate, type MandateChange } from "@/lib/mandates/transitions";
import { presentMandate } from "@/lib/mandates/present";
import type { Owner } from "@/lib/platform/scope";

const CHANGE = { authorize: "authorize", reject: "reject", cancel_by_payer: "cancelByPayer" } as const satisfies Record<string, MandateChange>;

export async function simulateMandate(auth: Owner, id: string, action: keyof typeof CHANGE) {
  const owned = await findOwnedMandate(auth, id);
  bindOnNextTransition({ resource: "mandate", id: owned.id });
  const r = await changeMandate(owned.id, CHANGE[action], { strict: true });
  return { mandate: presentMandate(r.mandate) };
}
