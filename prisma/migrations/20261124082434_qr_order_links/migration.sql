-- AlterTable
ALTER TABLE "qr_orders" ADD COLUMN     "next_check_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "qr_order_id" TEXT;
