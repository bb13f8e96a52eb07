// The OpenAPI 3.1 document: valid, and complete for every route the app serves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { api } from "./helpers.ts";

test("GET /openapi.json is a valid OpenAPI 3.1 document", async () => {
  const r = await api("/openapi.json");
  assert.equal(r.status, 200);
  assert.equal(r.body.openapi, "3.1.0");
  const result = await new Validator().validate(r.body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

function routeFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...routeFiles(path.join(dir, e.name), `${prefix}/${e.name}`));
    else if (e.name === "route.ts") out.push(prefix || "/");
  }
  return out;
}

test("every route file under app/api/v1 is in the document (test fixtures and the 404 catch-all aside)", async () => {
  const doc = (await api("/openapi.json")).body;
  const served = routeFiles(path.resolve("app/api/v1"))
    .filter((p) => !p.includes("[...") && !p.startsWith("/test-fixtures"))
    .map((p) => p.replace(/\[(\w+)\]/g, "{$1}"));
  const documented = Object.keys(doc.paths);
  assert.deepEqual(served.filter((p) => !documented.includes(p)), []);
  for (const [p, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      assert.ok(op.responses["200"] || op.responses["201"], `${method} ${p} documents its success`);
      if (op.security?.length) assert.ok(op.responses["401"], `${method} ${p} documents 401`);
    }
  }
});
