/** A JSON body, pretty-printed, scrollable, labelled for screen readers. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  let text: string;
  if (typeof value === "string") {
    try {
      text = JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      text = value;
    }
  } else text = JSON.stringify(value, null, 2) ?? "";
  return (
    <pre aria-label={label} tabIndex={0} className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
      {text || "(empty)"}
    </pre>
  );
}
