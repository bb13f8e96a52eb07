"use server";
// The sandbox's day-one actions of the dashboard (issue 24, point 3): settle pending funds now,
// and register the shop for QR charges without the operator. Each passes the gate with its
// sandbox-only permission (production answers production_key_refused) and calls the same lib/
// use case as the API.
import { z } from "zod";
import { dashboardAction } from "@/server/dashboard-action";
import { settleNow } from "@/lib/settlements/settle-now";
import { registerSandboxEstablishment } from "@/lib/qr/establishments";

export const settleNowAction = dashboardAction("settleNow", { args: (formKey?: string) => ({ formKey }), once: "settle-now" }, async ({ ctx }) => {
  // Only what the page shows: how many settled and the balance after (not the whole statement).
  const { settled, balance } = await settleNow(ctx);
  return { settled, available: balance.balance.available, pending: balance.balance.pending };
});

const qrRegistration = z.object({
  name: z.string().trim().min(1, "Enter the name printed on the code").max(60, "At most 60 characters"),
  city: z.string().trim().min(1, "Enter the city").max(40, "At most 40 characters"),
  mcc: z.string().regex(/^\d{4}$/, "Four digits, e.g. 5812 for restaurants"),
});

// A second submit registers the same again (an upsert): no form key needed.
export const registerQrSandboxAction = dashboardAction(
  "registerQrSandbox",
  { args: (form: { name?: string; city?: string; mcc?: string }, _formKey?: string) => ({ input: { name: form.name ?? "", city: form.city ?? "", mcc: form.mcc ?? "" } }), input: qrRegistration, shop: true },
  ({ ctx, input }) => registerSandboxEstablishment(ctx, input),
);
