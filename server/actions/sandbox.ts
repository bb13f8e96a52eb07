"use server";
// The sandbox's day-one actions of the dashboard (issue 24, point 3): settle pending funds now,
// and register the shop for QR charges without the operator. Each passes the gate with its
// sandbox-only permission (production answers production_key_refused) and calls the same lib/
// use case as the API.
import { z } from "zod";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { parseWith } from "@/lib/platform/contract/validation";
import { settleNow } from "@/lib/settlements/settle-now";
import { registerSandboxEstablishment } from "@/lib/qr/establishments";

export async function settleNowAction(formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("settleNow");
    // Only what the page shows: how many settled and the balance after (not the whole statement).
    return onceForForm(d, "settle-now", formKey, {}, async () => {
      const { settled, balance } = await settleNow(d.ctx);
      return { settled, available: balance.balance.available, pending: balance.balance.pending };
    });
  });
}

const qrRegistration = z.object({
  name: z.string().trim().min(1, "Enter the name printed on the code").max(60, "At most 60 characters"),
  city: z.string().trim().min(1, "Enter the city").max(40, "At most 40 characters"),
  mcc: z.string().regex(/^\d{4}$/, "Four digits, e.g. 5812 for restaurants"),
});

// A second submit registers the same again (an upsert): no form key needed.
export async function registerQrSandboxAction(input: { name?: string; city?: string; mcc?: string }, _formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("registerQrSandbox");
    const body = parseWith(qrRegistration, { name: input.name ?? "", city: input.city ?? "", mcc: input.mcc ?? "" }, "body");
    return registerSandboxEstablishment(await withShop(d), body);
  });
}
