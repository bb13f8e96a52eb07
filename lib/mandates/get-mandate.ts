// GET /mandates/{id} (and the dashboard's mandate page).
import { findOwnedMandate } from "@/lib/mandates/find";
import { presentMandate } from "@/lib/mandates/present";
import type { Owner } from "@/lib/platform/scope";

export async function getMandate(auth: Owner, id: string) {
  return { mandate: presentMandate(await findOwnedMandate(auth, id)) };
}
