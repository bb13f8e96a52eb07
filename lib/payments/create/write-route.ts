// POST /payments in production, the write after the providers answered (persist.ts
// routeCommitted): the payment's route (provider, reference, instructions, attempts) and the
// routing decision's rows (routing_decisions, lib/routing/propensity.ts) in one statement, a
// data-modifying CTE. As a transaction of an UPDATE and an INSERT it took four round trips
// (BEGIN, the two, COMMIT); as one statement it is one, and as atomic: the rows are written only
// with the update they belong to.
import { sql, type Tx } from "@/lib/platform/db";
import type { decisionRows } from "@/lib/routing/propensity";

export type RouteWrite = {
  provider: string;
  providerRef: string | null;
  paymentFormUrl: string | null;
  /** Kept as stored when undefined (the provider gave none). */
  instructions: unknown;
  attempts: unknown;
  routingVersion: number | null;
};

const ROUTE_WRITE = `WITH route AS (
  UPDATE transactions
     SET provider = $2, provider_ref = $3, payment_form_url = $4, instructions = COALESCE($5::jsonb, instructions),
         attempts = $6::jsonb, routing_version = $7::int, updated_at = now()
   WHERE id = $1
  RETURNING id
), decisions AS (
  INSERT INTO routing_decisions (merchant_id, shop_id, environment, transaction_id, step, provider, propensity, candidates, routable,
                                 routing_version, rule, reason, rail, country, band, brand, currency, document_type, amount_usd, outcome, decision, cost_usd)
  SELECT d.merchant_id, d.shop_id, d.environment::"Environment", route.id, d.step, d.provider, d.propensity, d.candidates, d.routable,
         d.routing_version, d.rule, d.reason, d.rail, d.country, d.band, d.brand, d.currency, d.document_type, d.amount_usd, d.outcome, d.decision, d.cost_usd
    FROM route, jsonb_to_recordset($8::jsonb) AS d(merchant_id text, shop_id text, environment text, step int, provider text, propensity float8,
         candidates jsonb, routable text[], routing_version int, rule int, reason text, rail text, country text, band text, brand text,
         currency text, document_type text, amount_usd bigint, outcome text, decision text, cost_usd bigint)
  RETURNING 1
)
SELECT (SELECT count(*) FROM route)::int AS updated, (SELECT count(*) FROM decisions)::int AS decided`;

type DecisionRow = ReturnType<typeof decisionRows>[number];

/** The decision rows as jsonb_to_recordset reads them: snake_case, BigInts as decimal strings. */
function decisionsJson(rows: DecisionRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      merchant_id: r.merchantId,
      shop_id: r.shopId,
      environment: r.environment,
      step: r.step,
      provider: r.provider,
      propensity: r.propensity,
      candidates: r.candidates,
      routable: r.routable,
      routing_version: r.routingVersion,
      rule: r.rule,
      reason: r.reason,
      rail: r.rail,
      country: r.country,
      band: r.band,
      brand: r.brand,
      currency: r.currency,
      document_type: r.documentType,
      amount_usd: r.amountUsd.toString(),
      outcome: r.outcome,
      decision: r.decision,
      cost_usd: r.costUsd.toString(),
    })),
  );
}

/**
 * Writes the route and the decision's rows: on the shared pool (autocommitted, one round trip),
 * or in `tx` when the caller has more to write with it. The row was inserted by this request
 * before any provider was called, so an update that finds nothing is a bug, not a race.
 */
export async function writeRoute(id: string, route: RouteWrite, decisions: DecisionRow[], tx?: Tx): Promise<void> {
  const values = [id, route.provider, route.providerRef, route.paymentFormUrl, route.instructions === undefined || route.instructions === null ? null : JSON.stringify(route.instructions), JSON.stringify(route.attempts), route.routingVersion, decisionsJson(decisions)];
  const rows = tx ? await tx.$queryRawUnsafe<Array<{ updated: number; decided: number }>>(ROUTE_WRITE, ...values) : await sql<{ updated: number; decided: number }>(ROUTE_WRITE, values);
  const done = rows[0];
  if (done?.updated !== 1 || done.decided !== decisions.length) throw new Error(`payment ${id}: the route's write updated ${done?.updated ?? 0} rows and ${done?.decided ?? 0} of ${decisions.length} decisions`);
}
