"use client";
// The sandbox's simulate buttons of a detail page (a payment, a payout): one button per action,
// enabled only in the states that action applies to, with the action's error underneath.
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

export type Simulation = { action: string; label: string; enabled: boolean };

export function SimulateButtons({ simulations, pendingAction, busy, error, onSimulate }: { simulations: ReadonlyArray<Simulation>; pendingAction?: string; busy: boolean; error?: string; onSimulate: (action: string) => void }) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {simulations.map((s) => (
          <Button key={s.action} variant="secondary" size="sm" disabled={busy || !s.enabled} busy={busy && pendingAction === s.action} onClick={() => onSimulate(s.action)}>
            {s.label}
          </Button>
        ))}
      </div>
      <div className="mt-3">
        <FormError message={error} />
      </div>
    </>
  );
}
