// A server-only renderer of the buyer pages' JSX to an HTML string (issue 23): the pages are route
// handlers that answer a finished document, with no React on the client and no framework render
// pipeline. It walks the element tree itself (host elements, function components, async ones,
// fragments): react-dom/server cannot run in the route handlers' react-server layer. It knows the
// attributes our buyer components use; an unknown camelCase prop is written as it is spelt.
import type { ReactNode } from "react";

const ELEMENT = Symbol.for("react.transitional.element");
const LEGACY_ELEMENT = Symbol.for("react.element");
const FRAGMENT = Symbol.for("react.fragment");
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
// React's DOM names for the props that differ from their attribute.
const NAMES: Record<string, string> = {
  className: "class", htmlFor: "for", defaultValue: "value", defaultChecked: "checked", readOnly: "readonly", autoFocus: "autofocus",
  autoComplete: "autocomplete", autoCapitalize: "autocapitalize", inputMode: "inputmode", maxLength: "maxlength", minLength: "minlength",
tabIndex: "tabindex", spellCheck: "spellcheck", noValidate: "novalidate", formAction: "formaction", encType: "enctype",
  acceptCharset: "accept-charset", httpEquiv: "http-equiv", crossOrigin: "crossorigin", fontFamily: "font-family", fontSize: "font-size",
  fontWeight: "font-weight", textAnchor: "text-anchor", strokeWidth: "stroke-width", strokeLinecap: "stroke-linecap", strokeLinejoin: "stroke-linejoin",
  fillRule: "fill-rule", clipRule: "clip-rule", dominantBaseline: "dominant-baseline",
};
// Written as "true"/"false" (enumerated), never dropped when false.
const BOOLEANISH = new Set(["spellcheck", "draggable", "contenteditable"]);
const SKIP = new Set(["children", "key", "ref", "dangerouslySetInnerHTML", "suppressHydrationWarning"]);

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const SPECIAL = /[&<>"']/;
// Most text needs no escape: a test first spares the replace and its callback (4 % of a page's CPU).
export const escapeHtml = (s: string) => (SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESC[c]!) : s);

type Element = { $$typeof: symbol; type: unknown; props: Record<string, unknown> };
const isElement = (n: unknown): n is Element => typeof n === "object" && n !== null && ((n as Element).$$typeof === ELEMENT || (n as Element).$$typeof === LEGACY_ELEMENT);
const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof v === "object" && v !== null && typeof (v as PromiseLike<unknown>).then === "function";

function attributes(props: Record<string, unknown>): string {
  let out = "";
  for (const key in props) {
    if (SKIP.has(key)) continue;
    const value = props[key];
    if (value === undefined || value === null || typeof value === "function" || typeof value === "symbol") continue;
    const name = NAMES[key] ?? key;
    const aria = name.startsWith("aria-") || name.startsWith("data-");
    if (typeof value === "boolean") {
      if (aria || BOOLEANISH.has(name)) out += ` ${name}="${value}"`;
      else if (value) out += ` ${name}=""`;
      continue;
    }
    if (name === "style" && typeof value === "object") {
      const css = Object.entries(value as Record<string, string | number>)
        .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${v}`)
        .join(";");
      out += ` style="${escapeHtml(css)}"`;
      continue;
    }
    out += ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

// Synchronous while the tree is (a promise per node would cost more than the rendering): only an
// async component's result is awaited, and what follows it waits for it.
type Pending = Promise<void> | undefined;

function renderList(list: readonly unknown[], from: number, out: string[]): Pending {
  for (let i = from; i < list.length; i++) {
    const pending = render(list[i], out);
    if (pending) return pending.then(() => renderList(list, i + 1, out));
  }
  return undefined;
}

function render(node: unknown, out: string[]): Pending {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string") return void out.push(escapeHtml(node));
  if (typeof node === "number" || typeof node === "bigint") return void out.push(String(node));
  if (Array.isArray(node)) return renderList(node, 0, out);
  if (isThenable(node)) return Promise.resolve(node).then((v) => render(v, out));
  if (!isElement(node)) throw new Error(`buyer page render: cannot render ${typeof node}`);
  const { type, props } = node;
  if (typeof type === "function") return render((type as (p: unknown) => unknown)(props), out);
  if (type === FRAGMENT) return render(props.children, out);
  if (typeof type !== "string") throw new Error("buyer page render: unsupported element type (a client component?)");
  out.push(`<${type}${attributes(props)}>`);
  if (VOID.has(type)) return;
  const inner = props.dangerouslySetInnerHTML as { __html: string } | undefined;
  if (inner) return void out.push(inner.__html, `</${type}>`);
  const pending = render(props.children, out);
  if (!pending) return void out.push(`</${type}>`);
  return pending.then(() => void out.push(`</${type}>`));
}

/** The HTML of a tree of server components (no hooks, no client components). */
export async function renderToHtml(node: ReactNode): Promise<string> {
  const out: string[] = [];
  await render(node, out);
  return out.join("");
}
