import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { AppError, ERROR_CODES, databaseUnavailable, errorEnvelopeSchema, errorStatus, errorType, isDatabaseUnavailable, isTransactionConflict, toEnvelope, transactionConflict, type ErrorCode } from "@/lib/platform/errors";

const ALLOWED_STATUSES = new Set([400, 401, 402, 403, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503]);

describe("error table", () => {
  test("has codes and no duplicates", () => {
    assert.ok(ERROR_CODES.length > 0);
    assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
  });

  test("every code maps to an allowed HTTP status", () => {
    for (const code of ERROR_CODES) {
      assert.ok(ALLOWED_STATUSES.has(errorStatus(code)), `${code} -> ${errorStatus(code)}`);
    }
  });

  test("statuses from the contract", () => {
    const expected: Partial<Record<ErrorCode, number>> = {
      missing_credentials: 401,
      key_kind_not_allowed: 403,
      production_key_refused: 400,
      content_type_required: 415,
      invalid_json: 400,
      invalid_request: 400,
      missing_field: 400,
      idempotency_conflict: 409,
      card_declined: 402,
      missing_required_fields: 422,
      rate_limited: 429,
      internal_error: 500,
      payment_instructions_unavailable: 502,
      service_unavailable: 503,
      cascade_exhausted: 422,
      route_not_found: 404,
      method_not_allowed: 405,
    };
    for (const [code, status] of Object.entries(expected)) {
      assert.equal(errorStatus(code as ErrorCode), status, code);
    }
  });

  test("types follow the status family", () => {
    for (const code of ERROR_CODES) {
      const status = errorStatus(code);
      const type = errorType(code);
      if (status === 401) assert.equal(type, "authentication_error", code);
      if (status === 402) assert.equal(type, "card_error", code);
      if (status === 429) assert.equal(type, "rate_limit_error", code);
      if (status >= 500) assert.equal(type, "api_error", code);
    }
    assert.equal(errorType("idempotency_conflict"), "idempotency_error");
    assert.equal(errorType("key_kind_not_allowed"), "permission_error");
  });
});

describe("AppError", () => {
  test("status matches the table for every code", () => {
    for (const code of ERROR_CODES) {
      assert.equal(new AppError(code, "m").status, errorStatus(code), code);
    }
  });

  test("is an Error carrying code, message and options", () => {
    const cause = new Error("root");
    const err = new AppError("card_declined", "Declined.", { param: "card", declineCode: "do_not_honor", details: { a: 1 }, headers: { "Retry-After": "3" }, cause });
    assert.ok(err instanceof Error);
    assert.equal(err.name, "AppError");
    assert.equal(err.message, "Declined.");
    assert.equal(err.code, "card_declined");
    assert.equal(err.param, "card");
    assert.equal(err.declineCode, "do_not_honor");
    assert.deepEqual(err.details, { a: 1 });
    assert.deepEqual(err.headers, { "Retry-After": "3" });
    assert.equal(err.cause, cause);
  });
});

describe("toEnvelope", () => {
  test("minimal error: code, type, message and requestId only", () => {
    const env = toEnvelope(new AppError("internal_error", "Boom."), "req_123");
    assert.deepEqual(env, { error: { code: "internal_error", type: "api_error", message: "Boom.", requestId: "req_123" } });
    assert.equal("param" in env.error, false);
    assert.equal("decline_code" in env.error, false);
    assert.equal("details" in env.error, false);
  });

  test("includes param, decline_code and details when set", () => {
    const err = new AppError("card_declined", "Declined.", { param: "card.number", declineCode: "insufficient_funds", details: { attempt: 2 } });
    assert.deepEqual(toEnvelope(err, "req_9"), {
      error: {
        code: "card_declined",
        type: "card_error",
        message: "Declined.",
        param: "card.number",
        decline_code: "insufficient_funds",
        requestId: "req_9",
        details: { attempt: 2 },
      },
    });
  });

  test("empty-string param is still included (only undefined is omitted)", () => {
    const env = toEnvelope(new AppError("invalid_request", "x", { param: "" }), "req_1");
    assert.equal(env.error.param, "");
  });

  test("never leaks headers or cause into the body", () => {
    const err = new AppError("rate_limited", "Slow down.", { headers: { "Retry-After": "5" }, cause: new Error("secret detail") });
    const env = toEnvelope(err, "req_2");
    assert.deepEqual(Object.keys(env.error).sort(), ["code", "message", "requestId", "type"]);
    assert.doesNotMatch(JSON.stringify(env), /secret detail|Retry-After/);
  });

  test("output satisfies the published envelope schema", () => {
    const full = new AppError("missing_field", "Missing.", { param: "amount", declineCode: "x", details: { missingFields: ["amount"] } });
    assert.equal(errorEnvelopeSchema.safeParse(toEnvelope(full, "req_a")).success, true);
    assert.equal(errorEnvelopeSchema.safeParse(toEnvelope(new AppError("forbidden", "No."), "req_b")).success, true);
  });
});

test("a lost or unreachable database is told apart from a bug (503 service_unavailable with Retry-After)", () => {
  const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect", errno: -111 });
  const terminated = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01", severity: "FATAL" });
  const adapter = Object.assign(new Error("Server has closed the connection."), { name: "PrismaClientKnownRequestError", code: "P1017" });
  const wrapped = Object.assign(new Error("Invalid `prisma.apiKeyPair.findUnique()` invocation"), { meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } } } });
  for (const e of [socket, terminated, adapter, wrapped, new Error("Connection terminated unexpectedly"), new Error("outer", { cause: Object.assign(new Error("x"), { code: "08006" }) })]) {
    assert.equal(isDatabaseUnavailable(e), true, String(e));
  }
  const unique = { name: "PrismaClientKnownRequestError", code: "P2002", meta: { driverAdapterError: { cause: { kind: "UniqueConstraintViolation" } } } };
  for (const e of [new TypeError("x is undefined"), unique, Object.assign(new Error("syntax"), { code: "42601" }), null, "Connection terminated"]) {
    assert.equal(isDatabaseUnavailable(e), false, String(e));
  }
  const answer = databaseUnavailable();
  assert.deepEqual([answer.status, answer.code, answer.headers?.["Retry-After"]], [503, "service_unavailable", "5"]);
});

test("a transaction rolled back by a concurrent one is told apart from a bug and from an outage (503 with Retry-After)", () => {
  // As they arrive: pg's own error (the lean `sql` path), a raw statement through Prisma (P2010
  // carrying the SQLSTATE), a model query (P2034), and a NOWAIT lock found held.
  const pgDeadlock = Object.assign(new Error("deadlock detected"), { code: "40P01", severity: "ERROR" });
  const raw = Object.assign(new Error("Raw query failed. Code: `40P01`."), { name: "PrismaClientKnownRequestError", code: "P2010", meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: "40P01", kind: "TransactionWriteConflict" } } } });
  const model = Object.assign(new Error("Transaction failed due to a write conflict or a deadlock."), { name: "PrismaClientKnownRequestError", code: "P2034" });
  const serialization = Object.assign(new Error("could not serialize access"), { code: "40001" });
  const nowait = { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "55P03" } } } };
  for (const e of [pgDeadlock, raw, model, serialization, nowait, new Error("outer", { cause: pgDeadlock })]) {
    assert.equal(isTransactionConflict(e), true, String(e));
    assert.equal(isDatabaseUnavailable(e), false, String(e));
  }
  const unique = { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "23505", kind: "UniqueConstraintViolation" } } } };
  for (const e of [unique, new TypeError("x"), Object.assign(new Error("syntax"), { code: "42601" }), null, "40P01"]) assert.equal(isTransactionConflict(e), false, String(e));
  const answer = transactionConflict();
  assert.deepEqual([answer.status, answer.code, answer.headers?.["Retry-After"]], [503, "service_unavailable", "1"]);
});
