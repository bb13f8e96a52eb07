// After `next build`: the server's JavaScript rewritten so that every file V8 loads is Latin-1.
//
// V8 keeps the source of every script it loads for as long as its functions live (lazy
// compilation reads it again), and stores a source as one byte a character only when every
// character fits in Latin-1; one character beyond it (an ellipsis in a schema comment Prisma
// inlines, a minus sign in a date parser's regular expression) makes the whole file two bytes a
// character. Turbopack also writes the same chunk under several names (the Prisma client's, 472 KB,
// six times), and each copy a server loads is kept. Escaping those characters (`\u2026`) where an
// escape means the same character — string and regular-expression literals, untagged templates,
// identifiers, comments — halves what such files cost in memory and changes no value.
//
// Left as they are: tagged templates (a tag can read the raw text, which the escape would
// change), anything outside a token (whitespace such as U+3000 or a byte-order mark is not
// whitespace once escaped), and U+2028 / U+2029 in comments (they end a line comment; an escape
// would not). A file acorn cannot parse is left whole and counted.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse, type Node } from "acorn";

/** A stretch of source where an escape means the same character: text (strings, regular expressions, templates, comments: one `\\uXXXX` a UTF-16 unit) or a name (one `\\u{X}` a code point, the only form a name accepts for characters beyond U+FFFF). */
type Range = [start: number, end: number, kind: "text" | "name"];

const WIDE = /[^\u0000-\u00ff]/;
const LINE_BREAKS = /[\u2028\u2029]/;

/** The stretches of `source` where an escape means the same character, in order (a tagged template's text is never one). */
function escapableRanges(source: string, sourceType: "script" | "module"): Range[] {
  const ranges: Range[] = [];
  const ast = parse(source, {
    ecmaVersion: "latest",
    sourceType,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    onComment: (_block, text, start, end) => {
      if (!LINE_BREAKS.test(text)) ranges.push([start, end, "text"]);
    },
  });
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    const n = node as Node & Record<string, unknown>;
    if (typeof n.type !== "string") return;
    if (n.type === "TaggedTemplateExpression") {
      // The tag and the expressions inside the template; its text stays as written.
      walk(n.tag);
      walk((n.quasi as Node & { expressions: Node[] }).expressions);
      return;
    }
    if (n.type === "Literal" && (typeof n.value === "string" || n.regex)) ranges.push([n.start, n.end, "text"]);
    if (n.type === "Identifier" || n.type === "PrivateIdentifier") ranges.push([n.start, n.end, "name"]);
    if (n.type === "TemplateElement") ranges.push([n.start, n.end, "text"]);
    for (const key of Object.keys(n)) {
      if (key === "type" || key === "start" || key === "end" || key === "loc" || key === "range") continue;
      const v = n[key];
      if (v && typeof v === "object") walk(v);
    }
  };
  walk(ast);
  // Comments and tokens never overlap; a shorthand property ({ a }) visits its name twice.
  return ranges.sort((a, b) => a[0] - b[0]);
}

const hex = (n: number) => n.toString(16).padStart(4, "0");

/**
 * A character already written as an escape of itself (`\\…`, an identity escape: the same
 * character in a string, a template and a regular expression without the u flag) loses its
 * backslash with the new escape; `\\\\…` is an escaped backslash before it, which stays.
 */
function escapeText(text: string): string {
  return text.replace(/(\\*)([^\u0000-\u00ff])/g, (_m, slashes: string, ch: string) => {
    if (LINE_BREAKS.test(ch)) return slashes + ch;
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}\\u${hex(ch.charCodeAt(0))}`;
  });
}

const escapeName = (text: string) => text.replace(/[^\u0000-\u00ff]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);

/** The file's text with its wide characters escaped where that keeps its meaning, or null if it cannot be parsed. */
export function narrowSource(source: string): string | null {
  if (!WIDE.test(source)) return source;
  let ranges: Range[];
  try {
    ranges = escapableRanges(source, "script");
  } catch {
    try {
      ranges = escapableRanges(source, "module");
    } catch {
      return null;
    }
  }
  let out = "";
  let at = 0;
  for (const [start, end, kind] of ranges) {
    if (start < at) continue;
    out += source.slice(at, start);
    const text = source.slice(start, end);
    out += kind === "name" ? escapeName(text) : escapeText(text);
    at = end;
  }
  return out + source.slice(at);
}

/** Rewrites every .js file under `dir`; returns how many were rewritten, the bytes they lost as two-byte text, and those left whole. */
export function narrowServerChunks(dir: string): { files: number; savedBytes: number; unparsed: string[] } {
  let files = 0;
  let savedBytes = 0;
  const unparsed: string[] = [];
  const visit = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) visit(p);
      else if (entry.name.endsWith(".js")) {
        const source = readFileSync(p, "utf8");
        if (!WIDE.test(source)) continue;
        const narrowed = narrowSource(source);
        if (narrowed === null) {
          unparsed.push(path.relative(dir, p));
          continue;
        }
        if (narrowed === source) continue;
        writeFileSync(p, narrowed);
        files++;
        // Two bytes a character before; one after, when no wide character is left.
        if (!WIDE.test(narrowed)) savedBytes += source.length;
      }
    }
  };
  visit(dir);
  return { files, savedBytes, unparsed };
}
