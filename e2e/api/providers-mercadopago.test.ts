// Mercado Pago end to end over HTTP, against its simulator (scripts/psp/mercadopago/, MP's wire
// format) behind a second app server configured as an operator configures MP. One simulator and
// one server for every test (./providers-mercadopago-setup.ts says why), the tests in two files:
// pay-ins on every rail and refunds (./providers-mercadopago-payins.ts); declines, a lost answer
// settled by reconciliation, and notices (./providers-mercadopago-outcomes.ts).
import { before, after } from "node:test";
import { db } from "@/lib/platform/db";
import { env, startMercadoPagoEnv } from "./providers-mercadopago-setup.ts";
import { payInTests } from "./providers-mercadopago-payins.ts";
import { outcomeTests } from "./providers-mercadopago-outcomes.ts";

before(async () => {
  Object.assign(env, await startMercadoPagoEnv());
});
after(async () => {
  await env.server?.stop();
  await env.sim?.stop();
  await db().$disconnect();
});

payInTests();
outcomeTests();
