-- Where a decline row comes from: the provider's published reference page that defines the code
-- (Stripe's decline codes, Mercado Pago's status_detail values, EBANX's error codes), so an
-- operator can check a row against the page. NULL for rows an operator wrote.
ALTER TABLE "decline_rules" ADD COLUMN "source" TEXT;
