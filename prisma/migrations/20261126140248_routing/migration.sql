-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "decline_code" TEXT,
ADD COLUMN     "routing_version" INTEGER;

-- CreateTable
CREATE TABLE "decline_rules" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "match_kind" TEXT NOT NULL,
    "match" TEXT NOT NULL,
    "decline_code" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 100,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "decline_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routing_configs" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "version" INTEGER NOT NULL,
    "rules" JSONB NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "routing_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routing_outcomes" (
    "id" BIGSERIAL NOT NULL,
    "provider" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "band" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "decline_code" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "rescued" BOOLEAN NOT NULL DEFAULT false,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "routing_outcomes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "decline_rules_provider_match_kind_match_key" ON "decline_rules"("provider", "match_kind", "match");

-- CreateIndex
CREATE INDEX "routing_configs_merchant_id_environment_idx" ON "routing_configs"("merchant_id", "environment");

-- CreateIndex
CREATE UNIQUE INDEX "routing_configs_shop_id_environment_version_key" ON "routing_configs"("shop_id", "environment", "version");

-- CreateIndex
CREATE INDEX "routing_outcomes_provider_rail_at_idx" ON "routing_outcomes"("provider", "rail", "at");

-- CreateIndex
CREATE INDEX "routing_outcomes_at_idx" ON "routing_outcomes"("at");

-- Seed: the decline table (lib/routing/declines.ts; edit with npm run decline:set / decline:delete).
INSERT INTO "decline_rules" ("id", "provider", "match_kind", "match", "decline_code", "decision", "priority", "updated_at") VALUES
  ('dcl_seed_001', '*', 'code', 'timeout', 'provider_timeout', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_002', '*', 'code', 'connection_failed', 'provider_unavailable', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_003', '*', 'code', 'connector_error', 'provider_error', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_004', '*', 'code', 'no_instructions', 'provider_error', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_005', '*', 'code', 'http_429', 'provider_rate_limited', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_006', '*', 'pattern', '^http_(502|503|504)$', 'provider_unavailable', 'retry_next', 50, CURRENT_TIMESTAMP),
  ('dcl_seed_007', '*', 'pattern', '^http_5[0-9][0-9]$', 'provider_error', 'retry_next', 60, CURRENT_TIMESTAMP),
  ('dcl_seed_008', '*', 'pattern', '^(unreadable|unexpected)_answer', 'provider_error', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_009', '*', 'code', 'method_not_supported', 'method_unsupported_by_provider', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_010', '*', 'code', 'amount_out_of_provider_limits', 'amount_out_of_provider_range', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_011', '*', 'code', 'rate_limited', 'provider_rate_limited', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_012', '*', 'code', 'insufficient_funds', 'insufficient_funds', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_013', '*', 'code', 'expired_card', 'expired_card', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_014', '*', 'code', 'do_not_honor', 'do_not_honor', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_015', '*', 'code', 'card_blocked', 'card_blocked', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_016', '*', 'code', 'suspected_fraud', 'suspected_fraud', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_017', '*', 'code', 'invalid_document', 'invalid_document', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_018', '*', 'code', 'invalid_account', 'invalid_account', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_019', '*', 'code', 'buyer_cancelled', 'buyer_cancelled', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_020', '*', 'code', 'limit_exceeded', 'limit_exceeded', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_021', '*', 'code', 'issuer_unavailable', 'issuer_unavailable', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_022', 'pagosur', 'code', '05', 'do_not_honor', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_023', 'pagosur', 'code', '51', 'insufficient_funds', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_024', 'pagosur', 'code', '54', 'expired_card', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_025', 'pagosur', 'code', '57', 'card_blocked', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_026', 'pagosur', 'code', '62', 'card_blocked', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_027', 'pagosur', 'code', '59', 'suspected_fraud', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_028', 'pagosur', 'code', '63', 'suspected_fraud', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_029', 'pagosur', 'code', '14', 'invalid_account', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_030', 'pagosur', 'code', 'DOC', 'invalid_document', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_031', 'pagosur', 'code', '61', 'limit_exceeded', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_032', 'pagosur', 'code', '65', 'limit_exceeded', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_033', 'pagosur', 'code', '91', 'issuer_unavailable', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_034', 'pagosur', 'code', '96', 'provider_error', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_035', 'pagosur', 'code', '17', 'buyer_cancelled', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_036', 'andespay', 'code', 'INSUFFICIENT_BALANCE', 'insufficient_funds', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_037', 'andespay', 'code', 'CARD_EXPIRED', 'expired_card', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_038', 'andespay', 'code', 'ISSUER_DECLINED', 'do_not_honor', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_039', 'andespay', 'code', 'CARD_RESTRICTED', 'card_blocked', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_040', 'andespay', 'code', 'FRAUD_SUSPECTED', 'suspected_fraud', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_041', 'andespay', 'code', 'DOCUMENT_MISMATCH', 'invalid_document', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_042', 'andespay', 'code', 'ACCOUNT_NOT_FOUND', 'invalid_account', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_043', 'andespay', 'code', 'USER_ABORTED', 'buyer_cancelled', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_044', 'andespay', 'code', 'DAILY_LIMIT', 'limit_exceeded', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_045', 'andespay', 'code', 'BANK_OFFLINE', 'issuer_unavailable', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_046', 'andespay', 'code', 'THROTTLED', 'provider_rate_limited', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_047', 'andespay', 'code', 'SYSTEM_ERROR', 'provider_error', 'retry_next', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_048', 'rapidpay', 'pattern', 'saldo insuficiente|fondos insuficientes', 'insufficient_funds', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_049', 'rapidpay', 'pattern', 'tarjeta vencida|cart[aã]o vencido', 'expired_card', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_050', 'rapidpay', 'pattern', 'no honrar|n[aã]o honrar', 'do_not_honor', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_051', 'rapidpay', 'pattern', 'bloquead[ao]', 'card_blocked', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_052', 'rapidpay', 'pattern', 'fraude', 'suspected_fraud', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_053', 'rapidpay', 'pattern', 'documento inv[aá]lido|CPF inv[aá]lido', 'invalid_document', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_054', 'rapidpay', 'pattern', 'cuenta inexistente|conta inexistente', 'invalid_account', 'stop', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_055', 'rapidpay', 'pattern', 'l[ií]mite excedido', 'limit_exceeded', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_056', 'rapidpay', 'pattern', 'emisor no disponible|emissor indispon[ií]vel', 'issuer_unavailable', 'retry_same_later', 100, CURRENT_TIMESTAMP),
  ('dcl_seed_057', 'rapidpay', 'pattern', 'cancelad[ao] por el comprador', 'buyer_cancelled', 'stop', 100, CURRENT_TIMESTAMP)
ON CONFLICT DO NOTHING;
