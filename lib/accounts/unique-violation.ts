// Prisma answers a unique violation with P2002 (through the pg adapter, without meta.target).
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}
