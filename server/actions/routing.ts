"use server";
// The routing page's server actions: save the rules (PUT /me/routing's use case, its schema and
// its permission) and preview where a payment would go.
import { AppError } from "@/lib/platform/errors";
import { runAction } from "@/lib/dashboard/action-result";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { putRoutingBody } from "@/lib/routing/schema";
import { previewRouting, putRouting } from "@/lib/routing/rules";

export async function saveRoutingAction(input: { rules: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageRouting");
    let rules: unknown;
    try {
      rules = JSON.parse(input.rules || "[]");
    } catch {
      throw new AppError("invalid_request", "The rules are not valid JSON: check the brackets, quotes and commas.", { param: "rules" });
    }
    try {
      const body = parseWith(putRoutingBody, { rules }, "body");
      return await putRouting(await withShop(d), {}, body);
    } catch (err) {
      // Every problem is shown at the one rules box, naming the place inside it.
      if (err instanceof AppError && err.param && err.param !== "rules") throw new AppError(err.code, `${err.message} (at ${err.param})`, { param: "rules" });
      throw err;
    }
  });
}

export async function previewRoutingAction(input: { paymentMethodId: string; amountUsd: string; currency: string; documentId: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("read");
    const amountUsd = Number(input.amountUsd);
    if (!input.amountUsd.trim() || !Number.isFinite(amountUsd)) throw new AppError("amount_invalid", "Enter the amount in USD, for example 25.", { param: "amountUsd" });
    return previewRouting(await withShop(d), { paymentMethodId: input.paymentMethodId, amountUsd, currency: input.currency, documentId: input.documentId });
  });
}
