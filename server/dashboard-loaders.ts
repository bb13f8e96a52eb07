// Every piece of live data the dashboard reads, declared once: a loader is its query schema and
// a scoped lib/ read. The GET route (/dashboard/api/<resource>) runs them for TanStack Query, the
// pages' server components run the same ones for the first paint (`loadDashboardData`), and the
// client hook takes its types from here (`LoaderData`, `LoaderParams`), so a page's data, its
// refetch and its loader cannot drift apart without the compiler noticing.
import { z } from "zod";
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { listQuery, pageQuery } from "@/lib/platform/paging/pagination";
import { withShop, type Dashboard } from "@/server/dashboard";
import { listKeys, overview, paymentDetail, recentRequests } from "@/lib/dashboard/queries";
import { listPayments } from "@/lib/payments/list-payments";
import { getLoggedRequest } from "@/lib/dashboard/request-log";
import { listPaymentsQuery } from "@/lib/payments/schema";
import { listClaims, CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/list-claims";
import { getClaim } from "@/lib/claims/get-claim";
import { listMandatesWithNextCharge, mandateWithCharges } from "@/lib/dashboard/subscriptions";
import { MANDATE_STATUSES } from "@/lib/mandates/schema";
import { getQrOrder, listQrOrders } from "@/lib/qr/orders";
import { listQrOrdersEndpoint } from "@/lib/qr/schema";
import { listSettlements } from "@/lib/settlements/list-settlements";
import { listSettlementsEndpoint } from "@/lib/settlements/schema";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { listWithdrawalsEndpoint } from "@/lib/withdrawals/schema";
import { listTopups } from "@/lib/topups/topups";
import { listTopupsEndpoint } from "@/lib/topups/schema";
import { listSubscriptions } from "@/lib/webhooks/subscriptions";
import { listDeliveries, listInbox } from "@/lib/webhooks/deliveries";
import { listAccountsQuery } from "@/lib/deposits/schema";
import { getDepositAccount, listDepositAccounts } from "@/lib/deposits/list-accounts";
import { listDeposits } from "@/lib/deposits/list-deposits";
import { listPayoutsEndpoint } from "@/lib/payouts/schema";
import { getPayoutBalance } from "@/lib/payouts/balances";
import { getBalance } from "@/lib/ledger/get-balance";
import { listPayoutMethods } from "@/lib/payouts/list-methods";
import { getPayout, listPayouts } from "@/lib/payouts/list-payouts";
import { getRouting } from "@/lib/routing/rules";
import { routingChoices } from "@/lib/routing/providers";
import { ANALYTICS_RANGES, routingAnalytics, type AnalyticsRange } from "@/lib/routing/analytics";

type Query = z.ZodType<unknown, Record<string, unknown>>;
type Loader<Q extends Query, T> = { query: Q; load: (d: Dashboard, q: z.output<Q>) => Promise<T> };

function loader<Q extends Query, T>(query: Q, load: (d: Dashboard, q: z.output<Q>) => Promise<T>): Loader<Q, T> {
  return { query, load };
}

const none = z.object({});
const id = z.object({ id: z.string().min(1).max(64) });
const claimsQuery = z.object({ ...pageQuery(), kind: z.enum(CLAIM_KINDS).optional(), status: z.enum(CLAIM_STATUSES).optional() });
const mandatesQuery = z.object({ ...pageQuery(), status: z.enum(MANDATE_STATUSES).optional() });
const deliveriesQuery = z.object({ ...pageQuery(), id: z.string().min(1).max(64), status: z.enum(["pending", "succeeded", "failed"]).optional(), event: z.string().max(60).optional() });
const pageOf = z.object({ ...pageQuery(), id: z.string().min(1).max(64) });
const depositsQuery = z.object({ ...pageQuery({ max: 200 }), id: z.string().min(1).max(64) });
const webhooksQuery = z.object({ ...listQuery() });

export const LOADERS = {
  overview: loader(none, (d) => overview(d.ctx)),
  payments: loader(listPaymentsQuery, (d, q) => listPayments(d.ctx, q)),
  payment: loader(id, (d, q) => paymentDetail(d.ctx, q.id)),
  claims: loader(claimsQuery, (d, q) => listClaims(d.ctx, q)),
  claim: loader(id, (d, q) => getClaim(d.ctx, q.id)),
  // Recurring PIX mandates of every shop of the merchant, each with its next charge.
  mandates: loader(mandatesQuery, (d, q) => listMandatesWithNextCharge(d.ctx, q)),
  mandate: loader(id, (d, q) => mandateWithCharges(d.ctx, q.id)),
  withdrawals: loader(listWithdrawalsEndpoint.query, (d, q) => listWithdrawals(d.ctx, q)),
  topups: loader(listTopupsEndpoint.query, (d, q) => listTopups(d.ctx, q)),
  settlements: loader(listSettlementsEndpoint.query, (d, q) => listSettlements(d.ctx, q)),
  "qr-orders": loader(listQrOrdersEndpoint.query, async (d, q) => listQrOrders(await withShop(d), q)),
  "qr-order": loader(id, async (d, q) => getQrOrder(await withShop(d), q.id)),
  webhooks: loader(webhooksQuery, (d, q) => listSubscriptions(d.ctx, q)),
  deliveries: loader(deliveriesQuery, (d, q) => listDeliveries(d.ctx, q.id, q)),
  inbox: loader(pageOf, (d, q) => listInbox(d.ctx, q.id, q)),
  requests: loader(none, (d) => recentRequests(d.ctx)),
  request: loader(id, (d, q) => getLoggedRequest({ merchantId: d.ctx.merchant.id, environment: d.ctx.environment }, q.id)),
  keys: loader(none, (d) => listKeys(d.ctx)),
  // Deposit accounts are shop-bound (4.6): the dashboard reads them as the merchant's first shop.
  "deposit-accounts": loader(listAccountsQuery, async (d, q) => listDepositAccounts(await withShop(d), q)),
  "deposit-account": loader(id, async (d, q) => getDepositAccount(await withShop(d), q.id)),
  deposits: loader(depositsQuery, async (d, q) => listDeposits(await withShop(d), q.id, q)),
  "payout-balance": loader(none, (d) => getPayoutBalance(d.ctx)),
  // The pay-in balance (GET /me/balance's read): the withdrawals page shows it live, so a
  // withdrawal (or a failed one returning) shows in "Available" without a reload.
  balance: loader(none, (d) => getBalance(d.ctx)),
  "payout-methods": loader(none, (d) => listPayoutMethods(d.ctx)),
  payouts: loader(listPayoutsEndpoint.query, (d, q) => listPayouts(d.ctx, q)),
  payout: loader(id, (d, q) => getPayout(d.ctx, q.id)),
  // Routing rules are per shop: the dashboard reads the merchant's first shop's.
  // The rule form's choices ride along: each rail with the providers a rule may name, in display names.
  routing: loader(none, async (d) => ({ ...(await getRouting(await withShop(d), {})), choices: routingChoices(d.ctx.environment) })),
  "routing-analytics": loader(z.object({ range: z.enum(Object.keys(ANALYTICS_RANGES) as [AnalyticsRange, ...AnalyticsRange[]]).default("24h") }), (d, q) => routingAnalytics(d.ctx, q.range)),
};

export type Loaders = typeof LOADERS;
export type Resource = keyof Loaders;
/** What a loader answers, as the browser sees it after JSON (dates become strings). */
export type LoaderData<R extends Resource> = Jsonified<Awaited<ReturnType<Loaders[R]["load"]>>>;
/** A loader's query parameters as the URL carries them. */
export type LoaderParams<R extends Resource> = { [K in keyof z.input<Loaders[R]["query"]>]?: string | number };

type Jsonified<T> = T extends Date ? string : T extends bigint ? never : T extends Array<infer U> ? Jsonified<U>[] : T extends object ? { [K in keyof T]: Jsonified<T[K]> } : T;

export function isResource(name: string): name is Resource {
  return Object.hasOwn(LOADERS, name);
}

/** Runs a loader with raw URL parameters: validated by its schema (400 with the field) first. */
export async function loadDashboardData<R extends Resource>(d: Dashboard, resource: R, params: LoaderParams<R> | Record<string, string>): Promise<LoaderData<R>> {
  const l = LOADERS[resource] as unknown as Loader<Query, unknown>;
  if (!l) throw new AppError("route_not_found", `No dashboard data named ${resource}.`);
  const raw = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => [k, String(v)]));
  // JSON round trip on the server too: the first paint has exactly the refetch's shape.
  return JSON.parse(JSON.stringify(await l.load(d, parseWith(l.query, raw, "query")))) as LoaderData<R>;
}
