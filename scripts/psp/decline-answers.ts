// How the simulated providers word a decline: one unified reason (what a test asks for with
// POST /_control/behaviour {mode: "decline", reason}) in each provider's own words.

export type DeclineReason = "insufficient_funds" | "expired_card" | "do_not_honor" | "card_blocked" | "suspected_fraud" | "invalid_document" | "invalid_account" | "buyer_cancelled" | "limit_exceeded" | "issuer_unavailable" | "rate_limited" | "unmapped";

/**
 * How each simulated provider words a decline, as real ones do: pagosur answers ISO 8583
 * response codes, andespay its own upper-case codes, rapidpay one code ("rejected") and a
 * message in Spanish; `unmapped` is a code no decline rule knows. The seeded decline table
 * (prisma/migrations/…_routing) maps them back to the unified codes.
 */
export const DECLINE_ANSWERS: Record<string, Record<DeclineReason, { reason: string; message?: string }>> = {
  pagosur: { insufficient_funds: { reason: "51" }, expired_card: { reason: "54" }, do_not_honor: { reason: "05" }, card_blocked: { reason: "62" }, suspected_fraud: { reason: "59" }, invalid_document: { reason: "DOC" }, invalid_account: { reason: "14" }, buyer_cancelled: { reason: "17" }, limit_exceeded: { reason: "61" }, issuer_unavailable: { reason: "91" }, rate_limited: { reason: "rate_limited" }, unmapped: { reason: "N7" } },
  andespay: { insufficient_funds: { reason: "INSUFFICIENT_BALANCE" }, expired_card: { reason: "CARD_EXPIRED" }, do_not_honor: { reason: "ISSUER_DECLINED" }, card_blocked: { reason: "CARD_RESTRICTED" }, suspected_fraud: { reason: "FRAUD_SUSPECTED" }, invalid_document: { reason: "DOCUMENT_MISMATCH" }, invalid_account: { reason: "ACCOUNT_NOT_FOUND" }, buyer_cancelled: { reason: "USER_ABORTED" }, limit_exceeded: { reason: "DAILY_LIMIT" }, issuer_unavailable: { reason: "BANK_OFFLINE" }, rate_limited: { reason: "THROTTLED" }, unmapped: { reason: "VELOCITY_CHECK_42" } },
  rapidpay: { insufficient_funds: { reason: "rejected", message: "Saldo insuficiente en la cuenta" }, expired_card: { reason: "rejected", message: "Tarjeta vencida" }, do_not_honor: { reason: "rejected", message: "Transacción no honrar por el emisor" }, card_blocked: { reason: "rejected", message: "Tarjeta bloqueada" }, suspected_fraud: { reason: "rejected", message: "Rechazada por sospecha de fraude" }, invalid_document: { reason: "rejected", message: "Documento inválido para el titular" }, invalid_account: { reason: "rejected", message: "Cuenta inexistente" }, buyer_cancelled: { reason: "rejected", message: "Cancelado por el comprador" }, limit_exceeded: { reason: "rejected", message: "Límite excedido" }, issuer_unavailable: { reason: "rejected", message: "Emisor no disponible" }, rate_limited: { reason: "rate_limited" }, unmapped: { reason: "rejected", message: "Error desconocido 7731" } },
};
