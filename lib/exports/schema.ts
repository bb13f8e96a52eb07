// CSV exports (issue "Integrators' ecosystem"): one endpoint per resource.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

export const exportQuery = z.object({
  from: z.string().max(10).optional().describe("First day, YYYY-MM-DD, in the time zone (default: 29 days before `to`)"),
  to: z.string().max(10).optional().describe("Last day (inclusive), YYYY-MM-DD, in the time zone (default: today)"),
  timeZone: z.string().max(64).optional().describe("IANA time zone the days are read and times printed in (default: the merchant's)"),
});

const RESOURCES = {
  payments: "Payments (pay-in transactions) created in the range, with fees, reserve, refunds and customer",
  ledger: "Ledger movements on the merchant's own accounts (balance buckets and payout balances)",
  payouts: "Payouts created in the range",
  claims: "Claims (refunds and chargebacks) opened in the range",
  settlements: "Settlement batches closed in the range",
} as const;

const exportEndpoint = <const R extends keyof typeof RESOURCES>(resource: R) =>
  defineEndpoint({
    method: "GET",
    path: `/exports/${resource}.csv`,
    tag: "Exports",
    summary: `Export ${resource} as CSV`,
    description: `${RESOURCES[resource]}. Streamed (any number of rows), oldest first, UTF-8 with a header row; times as local "YYYY-MM-DD HH:MM:SS" in the time zone, amounts as exact decimals in their currency. At most 366 days per request.`,
    auth: "secret",
    permission: "read",
    query: exportQuery,
    response: z.string().describe("text/csv"),
    responseType: "text/csv",
    errors: ["invalid_request"],
  });

export const exportPaymentsEndpoint = exportEndpoint("payments");
export const exportLedgerEndpoint = exportEndpoint("ledger");
export const exportPayoutsEndpoint = exportEndpoint("payouts");
export const exportClaimsEndpoint = exportEndpoint("claims");
export const exportSettlementsEndpoint = exportEndpoint("settlements");
export const EXPORT_ENDPOINTS = { payments: exportPaymentsEndpoint, ledger: exportLedgerEndpoint, payouts: exportPayoutsEndpoint, claims: exportClaimsEndpoint, settlements: exportSettlementsEndpoint };
