// A mandate read for its owner: scoped by merchant, shop and environment (another shop's mandate
// is mandate_not_found), so list, get and the dashboard share one scoped read.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { ownedScope, type Owner } from "@/lib/platform/scope";
import type { Mandate } from "@/lib/generated/prisma/client";

export const mandateNotFound = (id: string) => new AppError("mandate_not_found", `No mandate ${id} for this shop.`, { param: "id" });

export async function findOwnedMandate(auth: Owner, id: string): Promise<Mandate> {
  const m = await db().mandate.findFirst({ where: { ...ownedScope(auth), id } });
  if (!m) throw mandateNotFound(id);
  return m;
}
