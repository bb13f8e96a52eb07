-- AlterEnum
ALTER TYPE "ClaimKind" ADD VALUE 'pix_med';
