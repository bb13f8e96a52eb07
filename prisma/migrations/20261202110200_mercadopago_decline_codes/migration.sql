-- Mercado Pago's published decline codes: a payment rejected at creation carries its reason in
-- `status_detail` (lib/providers/mercadopago/transformers.ts passes it as the decline's reason).
-- The values and their meaning: "Collection creation results",
-- https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results
-- (github:mercadopago/devsite-docs guides/checkout-api-v2/collection-results.en.md); their kinds
-- (the buyer's data, the bank, fraud prevention, no reason given): "How to improve payments approval",
-- https://www.mercadopago.com.br/developers/en/docs/checkout-api/how-tos/improve-payment-approval
-- (guides/additional-content/how-tos/improve-approval.en.md).
-- Decisions: the buyer's own data, the issuer's refusal and MP's fraud checks stop the cascade
-- (another provider would hear the same card, bank or buyer); a duplicated payment stops (another
-- provider would charge the buyer twice); call_for_authorize and max_attempts wait for the buyer
-- (retry_same_later); other_reason (the issuer gave none; MP suggests another payment method),
-- card_error and invalid_installments are soft.
INSERT INTO "decline_rules" ("id", "provider", "match_kind", "match", "decline_code", "decision", "priority", "source", "updated_at") VALUES
  ('dr_mercadopago_1', 'mercadopago', 'code', 'cc_rejected_insufficient_amount', 'insufficient_funds', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_2', 'mercadopago', 'code', 'cc_rejected_high_risk', 'suspected_fraud', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_3', 'mercadopago', 'code', 'cc_rejected_blacklist', 'suspected_fraud', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_4', 'mercadopago', 'code', 'cc_rejected_bad_filled_card_number', 'do_not_honor', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_5', 'mercadopago', 'code', 'cc_rejected_bad_filled_date', 'expired_card', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_6', 'mercadopago', 'code', 'cc_rejected_bad_filled_other', 'do_not_honor', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_7', 'mercadopago', 'code', 'cc_rejected_bad_filled_security_code', 'do_not_honor', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_8', 'mercadopago', 'code', 'cc_rejected_card_disabled', 'card_blocked', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_9', 'mercadopago', 'code', 'cc_rejected_call_for_authorize', 'do_not_honor', 'retry_same_later', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_10', 'mercadopago', 'code', 'cc_rejected_duplicated_payment', 'do_not_honor', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_11', 'mercadopago', 'code', 'cc_rejected_max_attempts', 'limit_exceeded', 'retry_same_later', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_12', 'mercadopago', 'code', 'cc_rejected_other_reason', 'do_not_honor', 'retry_next', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/how-tos/improve-payment-approval', CURRENT_TIMESTAMP),
  ('dr_mercadopago_13', 'mercadopago', 'code', 'cc_rejected_card_error', 'provider_error', 'retry_next', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_14', 'mercadopago', 'code', 'cc_rejected_invalid_installments', 'method_unsupported_by_provider', 'retry_next', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  ('dr_mercadopago_15', 'mercadopago', 'code', 'cc_rejected_card_type_not_allowed', 'card_blocked', 'stop', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results', CURRENT_TIMESTAMP),
  -- Ours, not MP's: a rail this connector does not serve, and a charge without the payer.email MP requires
  -- (https://www.mercadopago.com.br/developers/en/docs/checkout-api/payment-methods/pix: payer.email in every example).
  ('dr_mercadopago_16', 'mercadopago', 'code', 'payer_email_required', 'method_unsupported_by_provider', 'retry_next', 100, 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/payment-methods/pix', CURRENT_TIMESTAMP),
  ('dr_mercadopago_17', 'mercadopago', 'code', 'method_unsupported_by_provider', 'method_unsupported_by_provider', 'retry_next', 100, NULL, CURRENT_TIMESTAMP)
ON CONFLICT DO NOTHING;
