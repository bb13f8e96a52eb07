// Stripe's request encoding (https://docs.stripe.com/api, "Request bodies are form-encoded"):
// `application/x-www-form-urlencoded` bodies and query strings whose nested keys use brackets,
// `metadata[reference]=tx_1`, `payment_method_types[0]=pix`, `expand[]=latest_charge`,
// `created[gte]=1700000000`. Parsed back into the nested object the caller meant; a key whose
// brackets are all numeric (or empty) is an array.

type Tree = { [k: string]: Tree | string };

function keyPath(key: string): string[] {
  const first = key.indexOf("[");
  if (first < 0) return [key];
  const path = [key.slice(0, first)];
  for (const m of key.slice(first).matchAll(/\[([^\]]*)\]/g)) path.push(m[1]!);
  return path;
}

function arrays(node: Tree | string): unknown {
  if (typeof node === "string") return node;
  const keys = Object.keys(node);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = arrays(node[k]!);
  if (keys.length && keys.every((k) => /^\d+$/.test(k) || k.startsWith("\u0000"))) return keys.sort((a, b) => Number(a.replace("\u0000", "")) - Number(b.replace("\u0000", ""))).map((k) => out[k]);
  return out;
}

/** Parses a form body or a query string (without its `?`). */
export function parseForm(text: string): Record<string, any> {
  const root: Tree = {};
  let pushes = 0;
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = keyPath(rawKey);
    let node: Tree = root;
    for (let i = 0; i < path.length; i++) {
      // `[]` appends: a fresh index that sorts after the ones before it.
      const k = path[i] === "" ? `\u0000${pushes++}` : path[i]!;
      if (i === path.length - 1) node[k] = value;
      else {
        if (typeof node[k] !== "object") node[k] = {};
        node = node[k] as Tree;
      }
    }
  }
  return arrays(root) as Record<string, any>;
}
