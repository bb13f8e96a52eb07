// Copies a value (a CLABE, a PIX code): the button is server-rendered hidden and
// public/buyer/islands.js ([data-copy]) shows it and makes it copy where the browser can. Without
// script there is no button that does nothing: the value is still selectable text.
export function CopyButton({ value, label, copiedLabel }: { value: string; label: string; copiedLabel: string }) {
  return (
    <button
      type="button"
      hidden
      data-copy={value}
      data-copied={copiedLabel}
      className="inline-flex min-h-11 shrink-0 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-400"
    >
      <span aria-live="polite">{label}</span>
    </button>
  );
}
