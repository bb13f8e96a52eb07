// POST /mandates/{id}/cancel: the merchant's cancel of an active mandate (mandate.cancelled,
// cancelledBy merchant). Charges not yet sent are cancelled with it (lib/mandates/transitions.ts).
import { findOwnedMandate } from "@/lib/mandates/find";
import { changeMandate } from "@/lib/mandates/transitions";
import { presentMandate } from "@/lib/mandates/present";
import type { Owner } from "@/lib/platform/scope";

export async function cancelMandate(auth: Owner, id: string) {
  const owned = await findOwnedMandate(auth, id);
  const r = await changeMandate(owned.id, "cancelByMerchant", { strict: true });
  return { mandate: presentMandate(r.mandate) };
}
