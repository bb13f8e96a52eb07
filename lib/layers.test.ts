// The two layers of lib/ (CODE_STYLE.md "Layout"): lib/platform/ (database, configuration, errors,
// ids, logs, metrics, tracing, caches, lifecycle, the HTTP transport, auth, idempotency, contract
// declarations, paging) imports no business folder; business folders (payments, ledger, …) sit
// above it and never import the HTTP transport (lib/platform/http/), which only the app layer and
// the route wrapper use. And no import circle anywhere in lib/. Tests are left out: a test may
// reach across to set up what it checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

type Sources = Map<string, string>; // repo-relative path -> text

function readLib(): Sources {
  const out: Sources = new Map();
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== "generated" && e.name !== "test-fixtures") walk(rel);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.set(rel, readFileSync(path.join(root, rel), "utf8"));
    }
  };
  walk("lib");
  return out;
}

/** The lib/ files a source imports (static imports, re-exports and `import()` of literal paths). */
function importsOf(text: string, exists: (p: string) => boolean): string[] {
  const specs = [...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm)].map((m) => m[1] ?? m[2] ?? "");
  const out: string[] = [];
  for (const spec of specs) {
    if (!spec.startsWith("@/lib/") || spec.startsWith("@/lib/generated/")) continue;
    const base = spec.slice(2);
    const hit = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find(exists);
    if (hit) out.push(hit);
  }
  return out;
}

const isPlatform = (file: string) => file.startsWith("lib/platform/");
const isTransport = (file: string) => file.startsWith("lib/platform/http/");

/** Every import that breaks a layering rule, as "from -> to: why". */
export function layerViolations(sources: Sources): string[] {
  const exists = (p: string) => sources.has(p);
  const out: string[] = [];
  for (const [file, text] of sources) {
    for (const target of importsOf(text, exists)) {
      if (isPlatform(file) && !isPlatform(target)) out.push(`${file} -> ${target}: the platform imports no business code`);
      if (!isPlatform(file) && isTransport(target)) out.push(`${file} -> ${target}: business code does not import the HTTP transport`);
    }
  }
  return out;
}

/** The circles of a graph: strongly connected groups of two or more nodes, or a node reaching itself. */
function circlesOf(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (edges.get(v) ?? []).includes(v)) circles.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return circles;
}

/** The import circles among the files. */
export function importCircles(sources: Sources): string[][] {
  const exists = (p: string) => sources.has(p);
  return circlesOf(new Map([...sources].map(([f, t]) => [f, importsOf(t, exists)])));
}

/** lib/ as rooms: each folder of lib/ one room (lib/platform/ one too), a loose file its own. */
function roomOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : file;
}

/** The circles among rooms: folders that import each other, however indirectly (an import running back up a floor). */
export function roomCircles(sources: Sources): string[][] {
  const exists = (p: string) => sources.has(p);
  const edges = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const room = roomOf(file);
    const out = edges.get(room) ?? [];
    for (const target of importsOf(text, exists).map(roomOf)) if (target !== room && !out.includes(target)) out.push(target);
    edges.set(room, out);
  }
  return circlesOf(edges);
}

test("lib/platform/ imports no business code, and business code does not import the HTTP transport", () => {
  assert.ok(existsSync(path.join(root, "lib/platform")) && statSync(path.join(root, "lib/platform")).isDirectory());
  assert.deepEqual(layerViolations(readLib()), []);
});

test("the imports of lib/ form no circle", () => {
  assert.deepEqual(importCircles(readLib()), []);
});

test("the folders of lib/ form no circle either (no import runs back up a floor)", () => {
  assert.deepEqual(roomCircles(readLib()), []);
});

test("a planted violation is caught: a platform file importing a business one, business importing the transport, a circle", () => {
  const planted: Sources = new Map([
    ["lib/platform/db.ts", `import { presentCreated } from "@/lib/payments/present";\n`],
    ["lib/payments/present.ts", `import type { Tx } from "@/lib/platform/db";\nimport { route } from "@/lib/platform/http/handler";\n`],
    ["lib/platform/http/handler.ts", `export const route = 1;\n`],
  ]);
  assert.deepEqual(layerViolations(planted), [
    "lib/platform/db.ts -> lib/payments/present.ts: the platform imports no business code",
    "lib/payments/present.ts -> lib/platform/http/handler.ts: business code does not import the HTTP transport",
  ]);
  assert.deepEqual(importCircles(planted), [["lib/payments/present.ts", "lib/platform/db.ts"]]);
  const folders: Sources = new Map([
    ["lib/payments/present.ts", `import { presentClaim } from "@/lib/claims/present";\n`],
    ["lib/claims/present.ts", `export const presentClaim = 1;\n`],
    ["lib/claims/refund.ts", `import { completePayment } from "@/lib/payments/transitions";\n`],
    ["lib/payments/transitions.ts", `export const completePayment = 1;\n`],
  ]);
  assert.deepEqual(importCircles(folders), [], "no circle of files");
  assert.deepEqual(roomCircles(folders), [["lib/claims", "lib/payments"]], "but a circle of folders");
});
