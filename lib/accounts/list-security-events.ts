// The merchant's security log, newest first, a page at a time.
import { db } from "@/lib/platform/db";
import { clampPage, envelope } from "@/lib/platform/paging/pagination";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function listSecurityEvents(ctx: Pick<AuthContext, "merchant">, query: { limit?: unknown; offset?: unknown }) {
  const page = clampPage(query, { def: 25 });
  const where = { merchantId: ctx.merchant.id };
  const [rows, total] = await Promise.all([
    db().securityEvent.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db().securityEvent.count({ where }),
  ]);
  return envelope(
    rows.map((r) => ({ id: r.id, type: r.type, actor: r.actor, ip: r.ip, details: (r.details ?? null) as Record<string, unknown> | null, createdAt: r.createdAt.toISOString() })),
    total,
    page,
  );
}
