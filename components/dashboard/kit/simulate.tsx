"use client";
// Sandbox outcomes of one record (a payment, a payout, a withdrawal, a settlement…) as buttons
// bound to its simulate action: once per click (the form key), the action's error underneath.
// `SimulateControls` sits in a table row (`simulateColumn`, a list's "Sandbox" column);
// `SimulateCard` is the detail pages' card.
import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { actionError } from "@/components/dashboard/use-dashboard-data";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { plainMessage } from "@/components/ui/plain-message";
import { Card } from "@/components/ui/card";
import type { Column } from "@/components/dashboard/kit/resource-table";

export type Outcome<A extends string> = { action: A; label: string; enabled: boolean; /** Why it is off, when it is (shown beneath the buttons). */ why?: string };

type Props<A extends string> = {
  target: string;
  action: (target: string, outcome: A, formKey?: string) => Promise<ActionResult<unknown>>;
  outcomes: ReadonlyArray<Outcome<A>>;
};

export function SimulateControls<A extends string>({ target, action, outcomes, dashWhenNone = true }: Props<A> & { dashWhenNone?: boolean }) {
  const simulate = useOnceMutation<[string, A], ActionResult<unknown>>(action);
  // In a table row a record with nothing to simulate shows a dash; a detail page keeps its
  // buttons, disabled, so the tester sees what the record's state no longer allows.
  if (dashWhenNone && !outcomes.some((o) => o.enabled)) return <span className="text-xs text-slate-600">—</span>;
  return (
    <SimulateButtons
      simulations={outcomes}
      busy={simulate.isPending}
      pendingAction={simulate.variables?.[1]}
      error={plainMessage(actionError(simulate.data, simulate.error)?.message)}
      onSimulate={(a) => simulate.mutate([target, a as A])}
    />
  );
}

export function SimulateCard<A extends string>({ title = "Sandbox simulation", id = "simulate", description, ...rest }: Props<A> & { title?: string; id?: string; description: ReactNode }) {
  return (
    <Card title={title} id={id}>
      <p className="mb-3 text-sm text-slate-600">{description}</p>
      <SimulateControls {...rest} dashWhenNone={false} />
    </Card>
  );
}

/**
 * A list's "Sandbox" column: each row's outcomes ("Simulate <outcome>") bound to its simulate
 * action, enabled while the row's status is `when` (the one status the provider still decides).
 */
export function simulateColumn<A extends string>(action: Props<A>["action"], outcomes: readonly A[], when: string): Column<{ id: string; status: string }> {
  return {
    header: "Sandbox",
    name: "simulate",
    cell: (row) => <SimulateControls target={row.id} action={action} outcomes={outcomes.map((a) => ({ action: a, label: `Simulate ${a}`, enabled: row.status === when }))} />,
  };
}
