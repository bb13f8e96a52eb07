"use client";
// The events a subscription receives: plain names grouped by what they are about, the API's
// name in each one's tooltip; "All events" (the API's "*") excludes the others. Only the types
// the service offers (`eventTypes`, the subscribable ones) are shown.
import { Term } from "@/components/ui/term";
import { EVENT_GROUPS, EVENT_WORDS } from "@/components/dashboard/event-words";

export function EventPicker({ eventTypes, value, onChange, error, legend = "Events" }: { eventTypes: string[]; value: string[]; onChange: (v: string[]) => void; error?: string; legend?: string }) {
  const all = value.includes("*");
  const toggle = (name: string, on: boolean) => {
    if (name === "*") return onChange(on ? ["*"] : []);
    onChange(on ? [...value.filter((v) => v !== "*"), name] : value.filter((v) => v !== name));
  };
  const offered = new Set(eventTypes);
  const grouped = new Set(EVENT_GROUPS.flatMap((g) => g.types));
  // A type the groups do not name yet still shows, under "Other", so none is ever out of reach.
  const groups = [...EVENT_GROUPS.map((g) => ({ name: g.name, types: g.types.filter((t) => offered.has(t)) as string[] })), { name: "Other", types: eventTypes.filter((t) => !grouped.has(t as never)) }].filter((g) => g.types.length > 0);
  return (
    <fieldset aria-describedby={error ? "event-picker-error" : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <label className="mb-2 flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4" checked={all} onChange={(e) => toggle("*", e.target.checked)} />
        <Term tech="*">
          <span className="font-medium">All events</span>
        </Term>
      </label>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {groups.map((g) => (
          <fieldset key={g.name} className="min-w-0">
            <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{g.name}</legend>
            {g.types.map((t) => (
              <label key={t} className="flex items-center gap-2 text-sm" data-event={t}>
                <input type="checkbox" className="size-4" disabled={all} checked={all || value.includes(t)} onChange={(e) => toggle(t, e.target.checked)} />
                <Term tech={t}>{(EVENT_WORDS as Record<string, string>)[t] ?? t}</Term>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {error ? (
        <p id="event-picker-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
