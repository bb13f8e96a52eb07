// lib/ is the code every caller shares (API, dashboard, scripts, jobs): it takes plain values and
// knows nothing of a request's cookies, Next's navigation or the Auth.js session. Those live in
// the app layer (app/, server/), which reads them and hands the values to lib/ (the gate).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const LIB = path.join(import.meta.dirname);
const ROOT = path.join(LIB, "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "generated" || e.name === "node_modules") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mts|js)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Import specifiers of a file: static imports, re-exports and dynamic imports. */
function imports(text: string): Array<{ spec: string; names: string }> {
  const out: Array<{ spec: string; names: string }> = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+([^;]*?)\s*from\s*["']([^"']+)["']/g)) out.push({ names: m[1]!, spec: m[2]! });
  for (const m of text.matchAll(/(?:import|require)\(\s*["']([^"']+)["']\s*\)/g)) out.push({ names: "*", spec: m[1]! });
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g)) out.push({ names: "*", spec: m[1]! });
  return out;
}

function webTier({ spec, names }: { spec: string; names: string }): boolean {
  if (spec === "next/headers" || spec === "next/navigation" || spec === "@/auth" || spec === "next-auth" || spec.startsWith("next-auth/")) return true;
  if (spec === "/auth" || /(^|\/)\.\.\/auth(\.ts)?$/.test(spec)) return true;
  if (spec.startsWith("@/app/") || spec.startsWith("@/server/")) return true;
  return spec === "next/server" && (names === "*" || /\bcookies\b|\bheaders\b/.test(names));
}

test("nothing under lib/ imports web-tier code (next/headers, next/navigation, next/server's cookies, Auth.js, app/, server/)", () => {
  const offenders: string[] = [];
  // This file names the forbidden imports in its own examples below.
  for (const file of sources(LIB).filter((f) => f !== import.meta.filename)) {
    for (const i of imports(readFileSync(file, "utf8"))) if (webTier(i)) offenders.push(`${path.relative(LIB, file)}: ${i.spec}`);
  }
  assert.deepEqual(offenders, []);
});

test("the check itself catches each form", () => {
  const caught = (src: string) => imports(src).some(webTier);
  assert.ok(caught(`import { cookies } from "next/headers";`));
  assert.ok(caught(`import { redirect } from "next/navigation";`));
  assert.ok(caught(`import { auth } from "@/auth";`));
  assert.ok(caught(`import { cookies, NextResponse } from "next/server";`));
  assert.ok(caught(`const m = await import("next/headers");`));
  assert.ok(caught(`export { requireDashboard } from "@/server/dashboard";`));
  assert.ok(!caught(`import { z } from "zod";`));
  assert.ok(!caught(`import { authorize } from "@/lib/platform/auth/policy";`));
});

test("no file of lib/ knows the job driver: only the server start (server-start.ts, beside instrumentation.ts) attaches Inngest (lib/platform/outbox/wake.ts carries the signal)", () => {
  const offenders: string[] = [];
  for (const file of sources(LIB).filter((f) => f !== import.meta.filename)) {
    for (const i of imports(readFileSync(file, "utf8"))) if (i.spec.startsWith("@/inngest") || i.spec === "inngest" || i.spec.startsWith("inngest/")) offenders.push(`${path.relative(LIB, file)}: ${i.spec}`);
  }
  assert.deepEqual(offenders, []);
});

// The app layer's own direction: pages and route handlers (app/) and their components read and
// change data through lib/ use cases (dashboard loaders and server actions live in server/), never
// the database client; components never import from app/ (an arrow back up the house).
test("nothing in app/ or components/ imports the database client (lib/platform/db); components import nothing from app/", () => {
  const offenders: string[] = [];
  for (const dir of ["app", "components"]) {
    for (const file of sources(path.join(ROOT, dir))) {
      for (const { spec } of imports(readFileSync(file, "utf8"))) {
        if (spec === "@/lib/platform/db" || /(^|\/)lib\/db(\.ts)?$/.test(spec)) offenders.push(`${path.relative(ROOT, file)}: ${spec}`);
        if (dir === "components" && spec.startsWith("@/app/")) offenders.push(`${path.relative(ROOT, file)}: ${spec}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

test("server actions live in server/actions/, not in app/ (app/ holds routes and pages)", () => {
  const offenders = sources(path.join(ROOT, "app")).filter((f) => /^\s*["']use server["']/.test(readFileSync(f, "utf8")));
  assert.deepEqual(offenders.map((f) => path.relative(ROOT, f)), []);
});
