// A payments list's row on the lean `sql` path (lib/platform/db.ts): the columns a list reads and
// their mapping to what presenting a payment needs. Mapping fifty wide rows through Prisma's
// runtime costs more CPU than the rest of a list request.
import type { PresentableTransaction } from "@/lib/payments/present";

// Named columns, not *: a prepared statement over * breaks when a migration adds a column.
// Only what presenting a payment reads: a list item shows no instructions (a voucher's or a
// PIX code's, parsed from jsonb for nothing) and no buyer phone or address.
export const COLUMNS = `id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, input_currency, input_amount,
  payment_method_id, method, rail_name, country, fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay,
  settlement_status, refunded_local, provider, attempts, payment_form_url, hosted_checkout, return_url, merchant_order_id,
  qr_order_id, mandate_id, tag1, tag2, tag3, user_name, user_email, expires_at, completed_at, created_at, decline_code, routing_version,
  late_completion, installments, fee_financing`;

const big = (v: string | null) => (v === null ? null : BigInt(v));

/**
 * A raw `transactions` row of COLUMNS (pg: int8 as text, jsonb parsed) -> the shape presenting
 * needs; what a list item never shows is not read (null here).
 */
export function fromRow(r: Record<string, any>): PresentableTransaction {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    shopId: r.shop_id,
    environment: r.environment,
    status: r.status,
    amountUsd: BigInt(r.amount_usd),
    amountLocal: BigInt(r.amount_local),
    currencyLocal: r.currency_local,
    inputCurrency: r.input_currency,
    inputAmount: big(r.input_amount),
    paymentMethodId: r.payment_method_id,
    method: r.method,
    railName: r.rail_name,
    country: r.country,
    feePlatform: BigInt(r.fee_platform),
    feeProvider: BigInt(r.fee_provider),
    feeNetwork: BigInt(r.fee_network),
    reserveAmount: BigInt(r.reserve_amount),
    reserveReleaseAt: null,
    reserveReleasedAt: null,
    settlementDelay: r.settlement_delay,
    settlementStatus: r.settlement_status,
    settleAt: null,
    refundedLocal: BigInt(r.refunded_local),
    pendingDebited: 0n,
    provider: r.provider,
    providerRef: null,
    attempts: r.attempts,
    declineCode: r.decline_code,
    routingVersion: r.routing_version,
    lateCompletion: r.late_completion,
    installments: r.installments,
    feeFinancing: BigInt(r.fee_financing),
    paymentFormUrl: r.payment_form_url,
    instructions: null,
    hostedCheckout: r.hosted_checkout,
    returnUrl: r.return_url,
    merchantOrderId: r.merchant_order_id,
    qrOrderId: r.qr_order_id,
    mandateId: r.mandate_id,
    tag1: r.tag1,
    tag2: r.tag2,
    tag3: r.tag3,
    userName: r.user_name,
    userEmail: r.user_email,
    userPhone: null,
    userIp: null,
    expiresAt: r.expires_at,
    completedAt: r.completed_at,
    createdAt: r.created_at,
  };
}
