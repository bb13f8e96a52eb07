// Prisma 7 reads its configuration here. Migrations do not go through the Prisma CLI on these
// machines (it needs a native engine it cannot download); scripts/migrate.ts drives the WASM
// schema engine instead. This file serves `prisma generate` and `prisma validate`.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
