import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { narrowSource } from "./latin1-chunks.ts";

const WIDE = /[^\u0000-\u00ff]/;
// Evaluates a script that leaves its answer in `out`, as plain JSON-able values.
const run = (source: string) => {
  const ctx: { out?: unknown } = {};
  vm.runInNewContext(source, ctx);
  return JSON.stringify(ctx.out);
};

test("strings, templates, regular expressions, names and comments read the same once narrowed, in one byte a character", () => {
  const source = [
    "// a comment with an ellipsis… and a minus −",
    "/* block — comment */",
    'var s = "tres puntos… y un signo − y un emoji 😀";',
    "var t = `plantilla ${1 + 1} → fin`;",
    "var r = /^([+−-])(\\d+)…$/; var ru = /[😀−]/u;",
    "var ñandú = 1; var π = 3; var o = { 'clé—x': 2, ω: 4 };",
    "class K { #φ = 5; get φ() { return this.#φ; } }",
    'var idEsc = "\\…" + "\\\\…";',
    "out = [s, t, r.test('−12…'), r.test('+12…'), ru.test('😀'), ru.test('−'), ñandú + π, o['clé—x'], o.ω, new K().φ, idEsc, r.source.length > 0];",
  ].join("\n");
  const narrowed = narrowSource(source)!;
  assert.ok(narrowed, "parsed");
  assert.doesNotMatch(narrowed, WIDE, narrowed);
  assert.equal(run(narrowed), run(source));
});

test("a tagged template keeps its raw text; U+2028 in a line comment, and whitespace outside tokens, stay as written", () => {
  const source = "var raw = String.raw`x…y`; // fin\u2028out = [raw, raw.length];";
  const narrowed = narrowSource(source)!;
  assert.equal(run(narrowed), run(source));
  assert.match(narrowed, /String\.raw`x…y`/);
  assert.match(narrowed, /\u2028/);
  const spaced = "var\u3000a = '−'; out = a;";
  const n2 = narrowSource(spaced)!;
  assert.equal(run(n2), run(spaced));
  assert.match(n2, /var\u3000a = '\\u2212'/);
});

test("a file without wide characters is returned as it is; one acorn cannot parse is left whole (null)", () => {
  assert.equal(narrowSource("var a = 'plain';"), "var a = 'plain';");
  assert.equal(narrowSource("var a = '…' +;"), null);
});

test("a CommonJS chunk of Turbopack's shape, with module syntax elsewhere (import()), narrows and runs", () => {
  const source = 'out = [1, (e) => { "use strict"; let m = "…"; return import.meta ? m : m; }].length; var x = "—";';
  // import.meta needs a module: parsed as one after the script parse fails.
  const narrowed = narrowSource(source)!;
  assert.doesNotMatch(narrowed, WIDE);
  assert.match(narrowed, /\\u2026/);
});
