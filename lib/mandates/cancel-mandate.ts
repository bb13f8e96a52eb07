// POST /mandates/{id}/cancel: the merchant's cancel of an active mandate (mandate.cancelled,
// cancelledBy merchant). Charges not yet sent are cancelled with it (lib/mandates/transitions.ts).
// A production mandate's recurrence is then cancelled at its PSP; if the PSP does not confirm, the
// mandate job asks again (lib/mandates/sync-recurrence.ts). Ours is cancelled either way: no
// charge is sent for it from this moment (sends read our mandate).
import { findOwnedMandate } from "@/lib/mandates/find";
import { changeMandate } from "@/lib/mandates/transitions";
import { presentMandate } from "@/lib/mandates/present";
import { closeAtProvider } from "@/lib/mandates/sync-recurrence";
import type { Owner } from "@/lib/platform/scope";

export async function cancelMandate(auth: Owner, id: string) {
  const owned = await findOwnedMandate(auth, id);
  const r = await changeMandate(owned.id, "cancelByMerchant", { strict: true });
  if (r.changed) await closeAtProvider(r.mandate).catch(() => false);
  return { mandate: presentMandate(r.mandate) };
}
