"use client";
/** Checkboxes of event names; "*" (every event) excludes the others. */
export function EventPicker({ eventTypes, value, onChange, error, legend = "Events" }: { eventTypes: string[]; value: string[]; onChange: (v: string[]) => void; error?: string; legend?: string }) {
  const all = value.includes("*");
  const toggle = (name: string, on: boolean) => {
    if (name === "*") return onChange(on ? ["*"] : []);
    onChange(on ? [...value.filter((v) => v !== "*"), name] : value.filter((v) => v !== name));
  };
  return (
    <fieldset aria-describedby={error ? "event-picker-error" : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4" checked={all} onChange={(e) => toggle("*", e.target.checked)} />
          <span className="font-medium">All events (*)</span>
        </label>
        {eventTypes.map((t) => (
          <label key={t} className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" disabled={all} checked={all || value.includes(t)} onChange={(e) => toggle(t, e.target.checked)} />
            <span className="font-mono text-xs">{t}</span>
          </label>
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
