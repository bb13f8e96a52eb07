// The selector's document field. Required (the hosted checkout sends the buyer's document with
// every method); its hint, keyboard (`inputmode`) and capitalisation follow the method picked, so
// a CPF opens a number pad and a CURP capital letters. Rendered on the server with what the
// page knows (the method of a rejected pick, or the session's country), so it works without
// script; with script it follows the radio buttons. After a rejected pick the page comes back
// with the typed value, the message under the field and the focus on it (`autofocus`). Before a
// method is picked, a page whose methods want different documents names each method's rule.
// Server-rendered; public/buyer/islands.js ([data-document]) follows the radio buttons.
import type { DocumentRule } from "@/lib/rails/rails";

type Labels = { label: string; required: string; help: string };
/** A method offered: its id, its document rule (the keyboard), its name and its hint (lib/checkout/document-hint.ts). */
type Method = { id: string; rule: DocumentRule; name: string; hint: string };

const NUMERIC: ReadonlySet<DocumentRule> = new Set(["cpf_cnpj", "co_document"]);
const HINT_CLASS = "text-sm text-slate-600";

export function DocumentField({ methods, initialMethod, labels, error, value }: { methods: Method[]; initialMethod?: string; labels: Labels; error?: string | null; value?: string }) {
  const hints = [...new Set(methods.map((m) => m.hint))];
  const rules = [...new Set(methods.map((m) => m.rule))];
  const chosen = methods.find((m) => m.id === initialMethod) ?? (hints.length === 1 ? methods[0] : undefined);
  const rule = chosen?.rule ?? (rules.length === 1 ? rules[0] : undefined);
  const hint = chosen?.hint ?? null;
  const numeric = rule ? NUMERIC.has(rule) : rules.length > 0 && rules.every((r) => NUMERIC.has(r));
  // What the island needs to follow a pick: each method's rule and hint, the help sentence.
  const island = JSON.stringify({ rules: Object.fromEntries(methods.map((m) => [m.id, m.rule])), hints: Object.fromEntries(methods.map((m) => [m.id, m.hint])), help: labels.help, numeric: [...NUMERIC], hintClass: HINT_CLASS });
  return (
    <div className="mt-5" id="document" data-document={island}>
      <label htmlFor="documentId" className="block font-semibold text-slate-900">
        {labels.label} <span className="text-sm font-normal text-slate-700">({labels.required})</span>
      </label>
      {hint ? (
        <p id="documentId-hint" className={HINT_CLASS} data-testid="document-format">
          {hint}. {labels.help}
        </p>
      ) : (
        <div id="documentId-hint" className="text-sm text-slate-600" data-testid="document-format">
          <ul className="mt-1 space-y-0.5">
            {hints.map((h) => (
              <li key={h} data-testid="document-rule">
                <span className="font-medium text-slate-800">{[...new Set(methods.filter((m) => m.hint === h).map((m) => m.name))].join(", ")}</span>: {h}.
              </li>
            ))}
          </ul>
          <p className="mt-1">{labels.help}</p>
        </div>
      )}
      <input
        id="documentId"
        name="documentId"
        type="text"
        required
        aria-required="true"
        inputMode={numeric ? "numeric" : "text"}
        autoCapitalize={rule === "rfc_curp" ? "characters" : "none"}
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        defaultValue={value}
        autoFocus={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "documentId-error documentId-hint" : "documentId-hint"}
        className="mt-2 block min-h-11 w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-4 focus-visible:outline-offset-1 focus-visible:outline-blue-400 aria-invalid:border-2 aria-invalid:border-red-700"
      />
      {error ? (
        <p id="documentId-error" role="alert" className="mt-1 text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
