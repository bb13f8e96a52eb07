"use client";
// The sandbox's simulate buttons of a detail page (a payment, a payout): one button per action,
// enabled only in the states that action applies to, with the action's error underneath. A button
// the record's state turns off for a reason the state alone does not show (a chargeback already
// open) says why beneath it.
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

export type Simulation = { action: string; label: string; enabled: boolean; /** Why it is off, when it is. */ why?: string };

export function SimulateButtons({ simulations, pendingAction, busy, error, onSimulate }: { simulations: ReadonlyArray<Simulation>; pendingAction?: string; busy: boolean; error?: string; onSimulate: (action: string) => void }) {
  const idPrefix = useId();
  const reasons = simulations.filter((s) => !s.enabled && s.why);
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {simulations.map((s) => (
          <Button key={s.action} variant="secondary" size="sm" disabled={busy || !s.enabled} busy={busy && pendingAction === s.action} aria-describedby={!s.enabled && s.why ? `${idPrefix}-${s.action}` : undefined} onClick={() => onSimulate(s.action)}>
            {s.label}
          </Button>
        ))}
      </div>
      {reasons.map((s) => (
        <p key={s.action} id={`${idPrefix}-${s.action}`} data-testid="simulate-why" className="mt-2 text-xs text-slate-600">
          {s.label}: {s.why}
        </p>
      ))}
      <div className="mt-3">
        <FormError message={error} />
      </div>
    </>
  );
}
