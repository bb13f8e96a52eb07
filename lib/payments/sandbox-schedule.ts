// The Sandbox-Simulate header (decisions.md): a deterministic outcome after fixed delays from
// creation, scaled by SANDBOX_DELAY_SCALE. Written as scheduled_actions rows in the creating
// transaction, so outcomes survive restarts and run once.
import { config } from "@/lib/platform/config";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";

const PLAN: Record<string, Array<[action: string, seconds: number]>> = {
  paid: [["paid", 5]],
  failed: [["failed", 5]],
  expired: [["expired", 10]],
  chargeback: [["paid", 5], ["chargeback", 10]],
  slow_payment: [["paid", 60]],
};

export function sandboxDelayMs(seconds: number): number {
  return Math.round(seconds * 1000 * config().SANDBOX_DELAY_SCALE);
}

/** The scheduled_actions rows of an outcome, to be written with the transaction that creates the payment. */
export function sandboxOutcomeRows(transactionId: string, outcome: string, from: Date) {
  return (PLAN[outcome] ?? []).map(([action, seconds]) => ({ id: newId("scheduledAction"), kind: "payment_simulation", transactionId, action, dueAt: new Date(from.getTime() + sandboxDelayMs(seconds)) }));
}

/** The Sandbox-Simulate request header: one of the planned outcomes, else 400 invalid_request. */
export function parseSandboxSimulateHeader(value: string | null): string | undefined {
  if (value === null || value.trim() === "") return undefined;
  const v = value.trim().toLowerCase();
  if (!Object.hasOwn(PLAN, v)) {
    throw new AppError("invalid_request", `Sandbox-Simulate must be one of ${Object.keys(PLAN).join(", ")}.`, { param: "Sandbox-Simulate" });
  }
  return v;
}
