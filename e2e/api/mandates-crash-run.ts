// The mandate job as a process of its own, for mandates-crash.test.ts to kill with SIGKILL: runs
// run-mandates on the test's future clock (NOW), scoped to its merchant, in small batches until
// nothing more is claimed. Not a test file itself.
import { runMandates } from "@/lib/mandates/send-due-charges";
import { db } from "@/lib/platform/db";

const now = new Date(process.env.NOW!);
const merchantId = process.env.MERCHANT_ID!;
await db().$queryRaw`SELECT 1`;
process.stdout.write("ready\n");
for (;;) {
  const r = await runMandates({ now, merchantId, limit: 3 });
  process.stdout.write(`${JSON.stringify(r)}\n`);
  if (r.claimed === 0) break;
}
await db().$disconnect();
