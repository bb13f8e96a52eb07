"use server";
// The routing page's server actions: save the rules (PUT /me/routing's use case, its schema and
// its permission), from the rule form or the JSON box; preview where a payment would go; and, in
// the sandbox, try the rules being edited on simulated test payments (nothing is written).
import { AppError } from "@/lib/platform/errors";
import { formatPath } from "@/lib/platform/contract/validation";
import { dashboardAction } from "@/server/dashboard-action";
import { putRoutingBody, tryRoutingInput } from "@/lib/routing/schema";
import { previewRouting, putRouting } from "@/lib/routing/rules";
import { tryRoutingRules } from "@/lib/routing/try-rules";
import { plainRuleIssue } from "@/lib/routing/rule-form";

// Every problem is shown at the one rules box, naming the place inside it.
export const saveRoutingAction = dashboardAction(
  "manageRouting",
  { args: (form: { rules: string }) => ({ input: { rules: rulesJson(form.rules) } }), input: putRoutingBody, shop: true, errorsAt: "rules" },
  ({ ctx, input }) => putRouting(ctx, {}, input),
);

// The rule form: the same schema and use case, each problem at the field it names (rules[0].when.minAmountUsd, …).
export const saveRulesFormAction = dashboardAction(
  "manageRouting",
  { args: (form: { rules: unknown[] }) => ({ input: { rules: form.rules } }), input: (raw: unknown) => judgedPlainly(putRoutingBody, raw), shop: true },
  ({ ctx, input }) => putRouting(ctx, {}, input),
);

type TryForm = { rules: unknown[]; paymentMethodId: string; amountUsd: string; count: string };

export const tryRoutingAction = dashboardAction(
  "tryRouting",
  { args: (form: TryForm) => ({ input: form }), input: (form: TryForm) => judgedPlainly(tryRoutingInput, { rules: form.rules, paymentMethodId: form.paymentMethodId, amountUsd: numberField(form.amountUsd, "amountUsd", "Enter the amount in USD, for example 25."), count: numberField(form.count, "count", "Enter how many test payments to send, from 1 to 50.") }) },
  async ({ input }) => tryRoutingRules(input),
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

/** `raw` through the API's schema; its first issue in plain words, at the field it names. */
function judgedPlainly<S extends typeof putRoutingBody | typeof tryRoutingInput>(schema: S, raw: unknown) {
  const r = schema.safeParse(raw);
  if (r.success) return r.data as S["_output"];
  const issue = r.error.issues[0]!;
  const param = formatPath(issue.path);
  const message = param.startsWith("rules[") ? plainRuleIssue(param, issue as { message: string }) : param === "count" ? "Send from 1 to 50 test payments at a time." : param === "amountUsd" ? "Enter a positive amount in USD, at most 100,000." : issue.message;
  throw new AppError("invalid_request", message, { param: param || "rules" });
}

function numberField(text: string, param: string, message: string): number {
  const n = Number(String(text ?? "").trim());
  if (!String(text ?? "").trim() || !Number.isFinite(n)) throw new AppError("invalid_request", message, { param });
  return n;
}

function previewInput(form: PreviewForm) {
  const amountUsd = Number(form.amountUsd);
  if (!form.amountUsd.trim() || !Number.isFinite(amountUsd)) throw new AppError("amount_invalid", "Enter the amount in USD, for example 25.", { param: "amountUsd" });
  return { paymentMethodId: form.paymentMethodId, amountUsd, currency: form.currency, documentId: form.documentId };
}
