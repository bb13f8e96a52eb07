-- EBANX's published refusal codes as decline rules (lib/providers/ebanx/transformers.ts REFUSALS):
-- the connector reports these as declines with the code as the reason; any other EBANX error is
-- `unavailable` and never reaches this table. Each row names the page that defines its code.
INSERT INTO "decline_rules" ("id", "provider", "match_kind", "match", "decline_code", "decision", "priority", "source", "updated_at") VALUES
  ('dr_ebanx_1', 'ebanx', 'code', 'BP-DR-23', 'invalid_document', 'stop', 100, 'https://github.com/ebanx/woocommerce-gateway-ebanx/blob/master/services/class-wc-ebanx-errors.php (BP-DR-23: O número de documento informado é inválido)', CURRENT_TIMESTAMP),
  ('dr_ebanx_2', 'ebanx', 'code', 'BP-DR-39', 'invalid_document', 'stop', 100, 'https://github.com/ebanx/woocommerce-gateway-ebanx/blob/master/services/class-wc-ebanx-errors.php (BP-DR-39: name, CPF and birth date do not match)', CURRENT_TIMESTAMP),
  ('dr_ebanx_3', 'ebanx', 'code', 'BP-DR-40', 'limit_exceeded', 'retry_same_later', 100, 'https://github.com/ebanx/woocommerce-gateway-ebanx/blob/master/services/class-wc-ebanx-errors.php (BP-DR-40: Você atingiu o limite de pagamento)', CURRENT_TIMESTAMP),
  ('dr_ebanx_4', 'ebanx', 'code', 'BP-DR-102', 'limit_exceeded', 'retry_same_later', 100, 'https://docs.ebanx.com/docs/resources/error-messages-spanish (BP-DR-102 Too many attempts)', CURRENT_TIMESTAMP),
  ('dr_ebanx_5', 'ebanx', 'code', 'BP-DR-6', 'amount_out_of_provider_range', 'retry_next', 100, 'https://docs.ebanx.com/docs/resources/error-codes/api-error-codes (BP-DR-6 Amount reported is less than the minimum amount)', CURRENT_TIMESTAMP),
  ('dr_ebanx_6', 'ebanx', 'code', 'BP-DR-7', 'amount_out_of_provider_range', 'retry_next', 100, 'https://docs.ebanx.com/docs/resources/error-codes/api-error-codes (BP-DR-7 Amount must be less than X)', CURRENT_TIMESTAMP),
  ('dr_ebanx_7', 'ebanx', 'code', 'BP-CH-1', 'method_unsupported_by_provider', 'retry_next', 100, 'https://docs.ebanx.com/docs/resources/error-codes/api-error-codes (BP-CH-1 Payment type group is not active)', CURRENT_TIMESTAMP),
  ('dr_ebanx_8', 'ebanx', 'code', 'BP-DR-93', 'provider_error', 'retry_next', 100, 'https://docs.ebanx.com/docs/resources/error-messages-spanish (BP-DR-93 Error creating this payment within PSE ACH)', CURRENT_TIMESTAMP)
ON CONFLICT DO NOTHING;
