-- A pending refund whose provider step has failed (or stayed unknown) for an hour is raised to an
-- operator, as a stuck withdrawal is: when that happened. Nullable, no default: no table rewrite.

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "attention_at" TIMESTAMPTZ(3);
