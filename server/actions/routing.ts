"use server";
// The routing page's server actions: save the rules (PUT /me/routing's use case, its schema and
// its permission) and preview where a payment would go.
import { AppError } from "@/lib/platform/errors";
import { dashboardAction } from "@/server/dashboard-action";
import { putRoutingBody } from "@/lib/routing/schema";
import { previewRouting, putRouting } from "@/lib/routing/rules";

// Every problem is shown at the one rules box, naming the place inside it.
export const saveRoutingAction = dashboardAction(
  "manageRouting",
  { args: (form: { rules: string }) => ({ input: { rules: rulesJson(form.rules) } }), input: putRoutingBody, shop: true, errorsAt: "rules" },
  ({ ctx, input }) => putRouting(ctx, {}, input),
);

type PreviewForm = { paymentMethodId: string; amountUsd: string; currency: string; documentId: string };

export const previewRoutingAction = dashboardAction(
  "read",
  { args: (form: PreviewForm) => ({ input: form }), input: previewInput, shop: true },
  ({ ctx, input }) => previewRouting(ctx, input),
);

function rulesJson(text: string): unknown {
  try {
    return JSON.parse(text || "[]");
  } catch {
    throw new AppError("invalid_request", "The rules are not valid JSON: check the brackets, quotes and commas.", { param: "rules" });
  }
}

function previewInput(form: PreviewForm) {
  const amountUsd = Number(form.amountUsd);
  if (!form.amountUsd.trim() || !Number.isFinite(amountUsd)) throw new AppError("amount_invalid", "Enter the amount in USD, for example 25.", { param: "amountUsd" });
  return { paymentMethodId: form.paymentMethodId, amountUsd, currency: form.currency, documentId: form.documentId };
}
