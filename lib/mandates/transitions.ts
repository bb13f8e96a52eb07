// A mandate's status changes (decisions.md "Recurring PIX (mandates)"), each a kernel operation
// (lib/ledger/transition.ts) though none moves money: the row locked, the status checked against
// the statuses the change accepts, the new status and its mandate.* event committed together,
// webhooks woken after commit. Applying one twice changes nothing the second time.
//   pending_authorization -> active (authorized) | rejected | expired (not authorized in time)
//   active -> cancelled (cancelledBy payer | merchant) | completed (its end date passed)
// A mandate that ends takes its charges not yet sent with it (cancelled); a charge already with
// its provider stays there until the provider says how it ended (unknown is not failed).
import { AppError } from "@/lib/platform/errors";
import { lockRow, transition, type Emit } from "@/lib/ledger/transition";
import { presentMandate } from "@/lib/mandates/present";
import type { Tx } from "@/lib/platform/db";
import type { Mandate } from "@/lib/generated/prisma/client";
import type { MandateCanceller, MandateStatus } from "@/lib/generated/prisma/enums";
import type { EventType } from "@/lib/platform/outbox/emit";

type Change = { to: MandateStatus; from: MandateStatus[]; event: EventType | null; cancelledBy?: MandateCanceller };

export const MANDATE_CHANGES = {
  authorize: { to: "active", from: ["pending_authorization"], event: "mandate.authorized" },
  reject: { to: "rejected", from: ["pending_authorization"], event: "mandate.rejected" },
  expire: { to: "expired", from: ["pending_authorization"], event: "mandate.expired" },
  cancelByPayer: { to: "cancelled", from: ["active"], event: "mandate.cancelled", cancelledBy: "payer" },
  cancelByMerchant: { to: "cancelled", from: ["active"], event: "mandate.cancelled", cancelledBy: "merchant" },
  // The contract names no event for it: the last charge's payment.* events have said all there is.
  complete: { to: "completed", from: ["active"], event: null },
} as const satisfies Record<string, Change>;
export type MandateChange = keyof typeof MANDATE_CHANGES;

/** The refusal of a change the mandate's status does not accept (409, details.status). */
export function notInStatus(m: Mandate, change: MandateChange): AppError {
  const pending = MANDATE_CHANGES[change].from[0] === "pending_authorization";
  return new AppError(pending ? "mandate_not_pending" : "mandate_not_active", `The mandate is ${m.status}; this applies to ${pending ? "a mandate pending authorization" : "an active mandate"}.`, { details: { status: m.status } });
}

async function lockMandate(tx: Tx, id: string): Promise<Mandate | null> {
  return lockRow(tx, "mandates", id, () => tx.mandate.findUnique({ where: { id } }));
}

/**
 * Applies `change` to mandate `id`. `strict`: a status the change does not accept is refused
 * (the API's calls); otherwise it changes nothing (the job, which may meet a mandate another
 * instance or the payer just moved).
 */
export async function changeMandate(id: string, change: MandateChange, opts: { strict?: boolean; at?: Date } = {}) {
  const c: Change = MANDATE_CHANGES[change];
  const r = await transition({
    name: `mandate.${change}`,
    load: (tx) => lockMandate(tx, id),
    missing: () => new AppError("mandate_not_found", `No mandate ${id}.`, { param: "id" }),
    ledger: (m) => ({ merchantId: m.merchantId, environment: m.environment, shopId: m.shopId }),
    status: (m) => m.status,
    from: c.from,
    refuse: (m) => (opts.strict ? notInStatus(m, change) : undefined),
    apply: async (tx, m) => {
      const at = opts.at ?? new Date();
      const updated = await tx.mandate.update({
        where: { id: m.id },
        data: { status: c.to, ...(c.to === "active" ? { authorizedAt: at } : { endedAt: at }), ...(c.cancelledBy ? { cancelledBy: c.cancelledBy } : {}) },
      });
      if (c.to !== "active") await tx.mandateCharge.updateMany({ where: { mandateId: m.id, status: { in: ["scheduled", "retrying"] } }, data: { status: "cancelled", leaseUntil: null } });
      const events: Emit[] = c.event ? [{ type: c.event, object: presentMandate(updated) }] : [];
      return { result: updated, events };
    },
  });
  return { mandate: r.changed ? r.result : r.row!, changed: r.changed };
}
