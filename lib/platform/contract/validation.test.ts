import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { formatPath, parseWith, zodToAppError } from "@/lib/platform/contract/validation";
import { AppError } from "@/lib/platform/errors";

const payment = z.object({
  amount: z.number().int().positive(),
  currency: z.string().length(3),
  description: z.string().max(10).optional(),
  customer: z.object({ name: z.string(), email: z.email() }).optional(),
  items: z.array(z.object({ name: z.string().max(5), qty: z.number().int() })).optional(),
});

/** Runs parseWith and returns the AppError it throws. */
function failure(input: unknown, where: "body" | "query" | "path" | "header" = "body"): AppError {
  try {
    parseWith(payment, input, where);
  } catch (err) {
    assert.ok(err instanceof AppError, "parseWith throws an AppError");
    return err;
  }
  assert.fail("expected parseWith to throw");
}

type Issue = { path: string; message: string };
const issuesOf = (err: AppError) => err.details?.issues as Issue[];

describe("parseWith", () => {
  test("returns the parsed value when valid", () => {
    const input = { amount: 100, currency: "PEN", customer: { name: "Ana", email: "ana@example.com" } };
    assert.deepEqual(parseWith(payment, input, "body"), input);
  });

  test("returns the schema's output (transforms apply)", () => {
    const schema = z.object({ n: z.coerce.number() });
    assert.deepEqual(parseWith(schema, { n: "12" }, "query"), { n: 12 });
  });
});

describe("missing fields -> missing_field", () => {
  test("an absent required top-level field names itself in param", () => {
    const err = failure({ currency: "PEN" });
    assert.equal(err.code, "missing_field");
    assert.equal(err.status, 400);
    assert.equal(err.param, "amount");
    assert.deepEqual(err.details?.missingFields, ["amount"]);
    assert.match(err.message, /`amount`/);
    assert.match(err.message, /field/);
  });

  test("several absent fields are all listed; param is the first", () => {
    const err = failure({});
    assert.equal(err.code, "missing_field");
    assert.equal(err.param, "amount");
    assert.deepEqual(err.details?.missingFields, ["amount", "currency"]);
    assert.deepEqual(issuesOf(err).map((i) => i.path), ["amount", "currency"]);
  });

  test("an absent nested field inside a present object has a dotted path", () => {
    const err = failure({ amount: 1, currency: "PEN", customer: { name: "Ana" } });
    assert.equal(err.code, "missing_field");
    assert.equal(err.param, "customer.email");
    assert.deepEqual(err.details?.missingFields, ["customer.email"]);
  });

  test("an absent field inside an array element uses index notation", () => {
    const err = failure({ amount: 1, currency: "PEN", items: [{ name: "a", qty: 1 }, { qty: 2 }] });
    assert.equal(err.code, "missing_field");
    assert.equal(err.param, "items[1].name");
  });

  test("outside the body the message says parameter", () => {
    const err = failure({ currency: "PEN" }, "query");
    assert.equal(err.code, "missing_field");
    assert.match(err.message, /parameter `amount`/);
  });

  test("a missing field wins over other problems in the same input", () => {
    const err = failure({ amount: "100" });
    assert.equal(err.code, "missing_field");
    assert.equal(err.param, "currency");
    assert.deepEqual(err.details?.missingFields, ["currency"]);
    // All issues are still reported.
    assert.deepEqual(issuesOf(err).map((i) => i.path).sort(), ["amount", "currency"]);
  });
});

describe("other failures -> invalid_request", () => {
  test("wrong type reports issues with path and message, and param", () => {
    const err = failure({ amount: "100", currency: "PEN" });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.status, 400);
    assert.equal(err.param, "amount");
    const issues = issuesOf(err);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.path, "amount");
    assert.equal(typeof issues[0]!.message, "string");
    assert.ok(issues[0]!.message.length > 0);
    assert.equal(err.details?.missingFields, undefined);
    assert.match(err.message, /^Invalid body: `amount` /);
  });

  test("null is a wrong value, not a missing one", () => {
    const err = failure({ amount: null, currency: "PEN" });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, "amount");
  });

  test("too long string", () => {
    const err = failure({ amount: 1, currency: "PEN", description: "far too long for ten" });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, "description");
    assert.deepEqual(issuesOf(err).map((i) => i.path), ["description"]);
  });

  test("nested wrong value has a dotted path", () => {
    const err = failure({ amount: 1, currency: "PEN", customer: { name: "Ana", email: "not-an-email" } });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, "customer.email");
  });

  test("array index paths are formatted like items[0].name", () => {
    const err = failure({ amount: 1, currency: "PEN", items: [{ name: "too long", qty: 1 }] });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, "items[0].name");
    assert.deepEqual(issuesOf(err), [{ path: "items[0].name", message: issuesOf(err)[0]!.message }]);
  });

  test("several issues are all reported; param is the first", () => {
    const err = failure({ amount: -1, currency: "PENN" });
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, "amount");
    assert.deepEqual(issuesOf(err).map((i) => i.path), ["amount", "currency"]);
  });

  test("a wrong top-level value has no param", () => {
    const err = failure("not an object");
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, undefined);
    assert.deepEqual(issuesOf(err).map((i) => i.path), [""]);
    assert.match(err.message, /^Invalid body: /);
  });

  test("an absent body is not reported as a missing field", () => {
    const err = failure(undefined);
    assert.equal(err.code, "invalid_request");
    assert.equal(err.param, undefined);
  });

  test("a missing object is a missing field, not its children", () => {
    const schema = z.object({ customer: z.object({ email: z.string() }) });
    const result = schema.safeParse({});
    assert.equal(result.success, false);
    const err = zodToAppError(result.error!, {}, "body");
    assert.equal(err.code, "missing_field");
    assert.equal(err.param, "customer");
  });
});

describe("formatPath", () => {
  test("joins keys with dots and indexes with brackets", () => {
    assert.equal(formatPath([]), "");
    assert.equal(formatPath(["a"]), "a");
    assert.equal(formatPath(["a", "b", "c"]), "a.b.c");
    assert.equal(formatPath(["items", 0, "name"]), "items[0].name");
    assert.equal(formatPath(["matrix", 1, 2]), "matrix[1][2]");
    assert.equal(formatPath([0, "name"]), "[0].name");
  });
});

test("a NUL anywhere in the input is invalid_request naming its path, before the schema runs", () => {
  const schema = z.object({ name: z.string(), tags: z.array(z.string()).optional(), meta: z.record(z.string(), z.string()).optional() });
  const refused = (input: unknown, where: "body" | "query" | "path" = "body") => {
    try {
      parseWith(schema, input, where);
    } catch (err) {
      assert.ok(err instanceof AppError);
      return { code: err.code, param: err.param, message: err.message };
    }
    return null;
  };
  assert.deepEqual(refused({ name: "a\u0000b" }), { code: "invalid_request", param: "name", message: "Invalid body: `name` must not contain the NUL character (U+0000)" });
  assert.equal(refused({ name: "ok", tags: ["x", "\u0000"] })?.param, "tags[1]");
  // A key with the NUL is named with it spelt out, so the answer holds none.
  assert.equal(refused({ name: "ok", meta: { "k\u0000": "v" } })?.param, "meta.k\\u0000");
  // Before the schema: an input that is also missing a field is refused for its NUL.
  assert.equal(refused({ tags: ["\u0000"] }, "query")?.message.startsWith("Invalid query: `tags[0]`"), true);
  assert.equal(refused({ name: "fine é € \\u0000 as text" }), null);
});
