-- Card installments (issue 42): a shop's plan per card rail, the plan a payment was made on, the
-- financing fee it books, and the part of a refund that gives that fee back.
CREATE TABLE "installment_plans" (
    "shop_id" TEXT NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "counts" INTEGER[],
    "min_installment" BIGINT NOT NULL,
    "paid_by" TEXT NOT NULL,
    "rates" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "installment_plans_pkey" PRIMARY KEY ("shop_id","payment_method_id")
);

ALTER TABLE "transactions" ADD COLUMN "installments" JSONB,
ADD COLUMN "fee_financing" BIGINT NOT NULL DEFAULT 0;

ALTER TABLE "claims" ADD COLUMN "financing_reversed" BIGINT NOT NULL DEFAULT 0;
