// The Sandbox-Provider-Behaviour header: fault injection for integrators, one request at a time.
// It scripts the simulated providers of the sandbox cascade, in order, so an integration can meet
// in the sandbox what production providers do: decline, time out, answer 5xx or garbage, and
// notify late, never, or twice. A comma-separated list:
//   provider steps, one per simulated provider tried in order (at most 3):
//     accept | decline | timeout | error | garbage
//   notice modifiers (at most one of late/lost, plus duplicate):
//     late_notice      the provider's "paid" notice arrives 30 s after creation (× SANDBOX_DELAY_SCALE)
//     lost_notice      no notice ever comes; the service's status check finds it paid after 60 s
//     duplicate_notice every webhook of this payment reaches you twice (same event id)
// `timeout,accept` routes through a second provider after the first timed out; `timeout` alone
// exhausts the cascade with an unknown outcome, so, as in production, the payment is kept
// `pending` (its id in the 422 `cascade_exhausted` details) and `late_notice` can still pay it.
// Steps run in no time: a timeout is recorded, not waited for.
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { sandboxDelayMs } from "@/lib/payments/sandbox-schedule";

export const PROVIDER_STEPS = ["accept", "decline", "timeout", "error", "garbage"] as const;
export const NOTICE_MODIFIERS = ["late_notice", "lost_notice", "duplicate_notice"] as const;
export type ProviderStep = (typeof PROVIDER_STEPS)[number];
export type SandboxBehaviour = { steps: ProviderStep[]; notice: "late" | "lost" | null; duplicate: boolean };

const HEADER = "Sandbox-Provider-Behaviour";
const MAX_STEPS = 3;

/** The header's value (either spelling), validated; undefined when absent. */
export function parseSandboxBehaviourHeader(headers: Headers): SandboxBehaviour | undefined {
  const raw = headers.get("sandbox-provider-behaviour") ?? headers.get("sandbox-provider-behavior");
  if (raw === null || raw.trim() === "") return undefined;
  const items = raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const steps: ProviderStep[] = [];
  let notice: SandboxBehaviour["notice"] = null;
  let duplicate = false;
  for (const item of items) {
    if ((PROVIDER_STEPS as readonly string[]).includes(item)) steps.push(item as ProviderStep);
    else if (item === "duplicate_notice") duplicate = true;
    else if (item === "late_notice" || item === "lost_notice") {
      if (notice) throw new AppError("invalid_request", `${HEADER}: late_notice and lost_notice exclude each other.`, { param: HEADER });
      notice = item === "late_notice" ? "late" : "lost";
    } else {
      throw new AppError("invalid_request", `${HEADER}: "${item}" is not one of ${[...PROVIDER_STEPS, ...NOTICE_MODIFIERS].join(", ")}.`, { param: HEADER });
    }
  }
  if (steps.length > MAX_STEPS) throw new AppError("invalid_request", `${HEADER}: at most ${MAX_STEPS} provider steps.`, { param: HEADER });
  if (steps.includes("accept") && steps.indexOf("accept") !== steps.length - 1) {
    throw new AppError("invalid_request", `${HEADER}: nothing can follow accept (the cascade stops at the first provider that accepts).`, { param: HEADER });
  }
  return { steps: steps.length ? steps : ["accept"], notice, duplicate };
}

/** The simulated provider of step `i`: the one that accepts is always `sandbox` (its page and buttons). */
export const faultProvider = (i: number) => `sandbox_fault_${i + 1}`;

/** The attempt a failing step records, as the production cascade records real ones. */
export function failedAttempt(step: Exclude<ProviderStep, "accept">, i: number) {
  const reasons = { decline: "provider_declined", timeout: "timeout", error: "http_503", garbage: "unreadable_answer" } as const;
  return { provider: faultProvider(i), outcome: step === "decline" ? ("declined" as const) : ("unavailable" as const), reason: reasons[step], durationMs: 0 };
}

/** Scheduled actions the notice modifiers need, written with the payment's row. */
export function behaviourActions(transactionId: string, b: SandboxBehaviour | undefined, from: Date) {
  if (!b) return [];
  const at = (seconds: number) => new Date(from.getTime() + sandboxDelayMs(seconds));
  const rows: { id: string; kind: string; transactionId: string; action: string; dueAt: Date }[] = [];
  if (b.notice === "late") rows.push({ id: newId("scheduledAction"), kind: "payment_simulation", transactionId, action: "paid", dueAt: at(30) });
  if (b.notice === "lost") rows.push({ id: newId("scheduledAction"), kind: "payment_simulation", transactionId, action: "paid", dueAt: at(60) });
  if (b.duplicate) rows.push({ id: newId("scheduledAction"), kind: "payment_simulation", transactionId, action: "redeliver", dueAt: at(5) });
  return rows;
}
