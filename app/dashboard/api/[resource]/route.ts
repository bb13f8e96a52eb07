// Live data for the dashboard's TanStack queries (GET only; mutations are server actions). The
// session decides merchant and environment through the gate (permission "read", see GET); every
// loader is a scoped lib/ read.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { errorResponse } from "@/lib/http/handler";
import { parseWith } from "@/lib/http/validation";
import { dashboardOrThrow, withShop, type Dashboard } from "@/server/dashboard";
import { listKeys, overview, paymentDetail, recentRequests } from "@/lib/dashboard/queries";
import { listPayments } from "@/lib/payments/list-payments";
import { listPaymentsQuery } from "@/lib/payments/schema";
import { listClaims, CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/list-claims";
import { getClaim } from "@/lib/claims/get-claim";
import { getQrOrder, listQrOrders } from "@/lib/qr/orders";
import { listSettlements } from "@/lib/settlements/list-settlements";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { listWithdrawalsEndpoint } from "@/lib/withdrawals/schema";
import { listTopups } from "@/lib/topups/topups";
import { listTopupsEndpoint } from "@/lib/topups/schema";
import { listSettlementsEndpoint } from "@/lib/settlements/schema";
import { listQrOrdersEndpoint } from "@/lib/qr/schema";
import { listSubscriptions } from "@/lib/webhooks/subscriptions";
import { listDeliveries, listInbox } from "@/lib/webhooks/deliveries";
import { pageQuery } from "@/lib/http/pagination";
import { listAccountsQuery } from "@/lib/deposits/schema";
import { getDepositAccount, listDepositAccounts } from "@/lib/deposits/list-accounts";
import { listDeposits } from "@/lib/deposits/list-deposits";
import { listPayoutsEndpoint } from "@/lib/payouts/schema";
import { getPayoutBalance } from "@/lib/payouts/balances";
import { listPayoutMethods } from "@/lib/payouts/list-methods";
import { getPayout, listPayouts } from "@/lib/payouts/list-payouts";

const id = z.object({ id: z.string().min(1).max(64) });
const claimsQuery = z.object({ ...pageQuery(), kind: z.enum(CLAIM_KINDS).optional(), status: z.enum(CLAIM_STATUSES).optional() });
const deliveriesQuery = z.object({ ...pageQuery(), id: z.string().min(1).max(64), status: z.enum(["pending", "succeeded", "failed"]).optional(), event: z.string().max(60).optional() });
const pageOf = z.object({ ...pageQuery(), id: z.string().min(1).max(64) });
const depositsQuery = z.object({ ...pageQuery({ max: 200 }), id: z.string().min(1).max(64) });

type Loader = (d: Dashboard, q: Record<string, string>) => Promise<unknown>;

const LOADERS: Record<string, Loader> = {
  overview: (d) => overview(d.ctx),
  payments: (d, q) => listPayments(d.ctx, parseWith(listPaymentsQuery, q, "query")),
  payment: (d, q) => paymentDetail(d.ctx, parseWith(id, q, "query").id),
  claims: (d, q) => listClaims(d.ctx, parseWith(claimsQuery, q, "query")),
  claim: (d, q) => getClaim(d.ctx, parseWith(id, q, "query").id),
  withdrawals: (d, q) => listWithdrawals(d.ctx, parseWith(listWithdrawalsEndpoint.query, q, "query")),
  topups: (d, q) => listTopups(d.ctx, parseWith(listTopupsEndpoint.query, q, "query")),
  settlements: (d, q) => listSettlements(d.ctx, parseWith(listSettlementsEndpoint.query, q, "query")),
  "qr-orders": async (d, q) => listQrOrders(await withShop(d), parseWith(listQrOrdersEndpoint.query, q, "query")),
  "qr-order": async (d, q) => getQrOrder(await withShop(d), parseWith(id, q, "query").id),
  webhooks: (d, q) => listSubscriptions(d.ctx, q),
  deliveries: (d, q) => {
    const p = parseWith(deliveriesQuery, q, "query");
    return listDeliveries(d.ctx, p.id, p);
  },
  inbox: (d, q) => {
    const p = parseWith(pageOf, q, "query");
    return listInbox(d.ctx, p.id, p);
  },
  requests: (d) => recentRequests(d.ctx),
  keys: (d) => listKeys(d.ctx),
  // Deposit accounts are shop-bound (4.6): the dashboard reads them as the merchant's first shop.
  "deposit-accounts": async (d, q) => listDepositAccounts(await withShop(d), parseWith(listAccountsQuery, q, "query")),
  "deposit-account": async (d, q) => getDepositAccount(await withShop(d), parseWith(id, q, "query").id),
  deposits: async (d, q) => {
    const p = parseWith(depositsQuery, q, "query");
    return listDeposits(await withShop(d), p.id, p);
  },
  "payout-balance": (d) => getPayoutBalance(d.ctx),
  "payout-methods": (d) => listPayoutMethods(d.ctx),
  payouts: (d, q) => listPayouts(d.ctx, parseWith(listPayoutsEndpoint.query, q, "query")),
  payout: (d, q) => getPayout(d.ctx, parseWith(id, q, "query").id),
};

export async function GET(req: Request, ctx: { params: Promise<{ resource: string }> }) {
  const requestId = newId("request");
  try {
    const { resource } = await ctx.params;
    const load = Object.hasOwn(LOADERS, resource) ? LOADERS[resource] : undefined;
    if (!load) throw new AppError("route_not_found", `No dashboard data named ${resource}.`);
    // Every loader is a read: none changes state or reveals a secret (those are server actions
    // with their own permission), so every role passes the gate here.
    const d = await dashboardOrThrow("read");
    const q = Object.fromEntries(new URL(req.url).searchParams);
    const body = await load(d, q);
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Environment": d.environment } });
  } catch (err) {
    return errorResponse(err, requestId).response;
  }
}
