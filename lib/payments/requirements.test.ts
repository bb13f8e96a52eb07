import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { checkRailRequirements, type FieldProblem } from "@/lib/payments/requirements";
import { AppError } from "@/lib/platform/errors";
import { railById, type Rail } from "@/lib/rails/rails";

const rail = (id: string): Rail => {
  const r = railById(id);
  assert.ok(r, `rail ${id} exists`);
  return r;
};
const pix = rail("sbx_pix");
const spei = rail("sbx_spei");
const pse = rail("sbx_pse");
const card = rail("sbx_card");
const cash = rail("sbx_cash");

type Input = Parameters<typeof checkRailRequirements>[1];
const PIX_OK: Input = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "529.982.247-25" };

/** Runs the check and returns the AppError it throws. */
function failure(r: Rail, input: Input, extra?: Parameters<typeof checkRailRequirements>[2]): AppError {
  try {
    checkRailRequirements(r, input, extra);
  } catch (err) {
    assert.ok(err instanceof AppError, "throws an AppError");
    return err;
  }
  assert.fail("expected checkRailRequirements to throw");
}
const keys = (fields: unknown) => (fields as FieldProblem[]).map((f) => f.key);

describe("checkRailRequirements: missing data", () => {
  test("PIX without buyer data: 422 missing_required_fields listing every field with key, type, label, help", () => {
    const err = failure(pix, {});
    assert.equal(err.code, "missing_required_fields");
    assert.equal(err.status, 422);
    assert.equal(err.details?.reason, "missing");
    const fields = err.details?.missingFields as FieldProblem[];
    assert.deepEqual(keys(fields).sort(), ["documentId", "userEmail", "userName"]);
    for (const f of fields) {
      assert.deepEqual(Object.keys(f).sort(), ["help", "key", "label", "type"]);
      for (const v of Object.values(f)) assert.ok(typeof v === "string" && v.length > 0, `${f.key}: ${JSON.stringify(f)}`);
    }
    assert.equal(fields.find((f) => f.key === "userEmail")!.type, "email");
    assert.match(fields.find((f) => f.key === "documentId")!.help, /CPF/, "the document help names what the rail wants");
    assert.equal(err.details?.malformedFields, undefined);
    assert.ok(["documentId", "userName", "userEmail"].includes(err.param!), "param names a missing field");
  });

  test("one field missing: only that one is listed, and it is the param", () => {
    const err = failure(pix, { ...PIX_OK, userEmail: undefined });
    assert.equal(err.details?.reason, "missing");
    assert.deepEqual(keys(err.details?.missingFields), ["userEmail"]);
    assert.equal(err.param, "userEmail");
  });

  test("blank values count as missing", () => {
    const err = failure(pix, { ...PIX_OK, userName: "   " });
    assert.equal(err.details?.reason, "missing");
    assert.deepEqual(keys(err.details?.missingFields), ["userName"]);
  });

  test("missing and malformed together: reason missing, both lists present", () => {
    const err = failure(pix, { userName: "Ana Souza", documentId: "123.456.789-00" });
    assert.equal(err.details?.reason, "missing");
    assert.deepEqual(keys(err.details?.missingFields), ["userEmail"]);
    assert.deepEqual(keys(err.details?.malformedFields), ["documentId"]);
  });
});

describe("checkRailRequirements: malformed data", () => {
  test("PIX with a CPF whose check digits are wrong: reason malformed", () => {
    const err = failure(pix, { ...PIX_OK, documentId: "529.982.247-24" });
    assert.equal(err.code, "missing_required_fields");
    assert.equal(err.details?.reason, "malformed");
    assert.deepEqual(keys(err.details?.malformedFields), ["documentId"]);
    assert.equal(err.details?.missingFields, undefined);
    assert.equal(err.param, "documentId");
  });

  test("PIX accepts a CNPJ, including an alphanumeric one", () => {
    checkRailRequirements(pix, { ...PIX_OK, documentId: "11.222.333/0001-81" });
    checkRailRequirements(pix, { ...PIX_OK, documentId: "12.ABC.345/01DE-35" });
  });

  test("a one-word userName is malformed", () => {
    const err = failure(pix, { ...PIX_OK, userName: "Ana" });
    assert.equal(err.details?.reason, "malformed");
    assert.deepEqual(keys(err.details?.malformedFields), ["userName"]);
    const err2 = failure(pix, { ...PIX_OK, userName: "  Ana  " });
    assert.equal(err2.details?.reason, "malformed");
  });

  test("a bad email is malformed", () => {
    const err = failure(pix, { ...PIX_OK, userEmail: "not-an-email" });
    assert.equal(err.details?.reason, "malformed");
    assert.deepEqual(keys(err.details?.malformedFields), ["userEmail"]);
  });

  test("SPEI wants an RFC or CURP", () => {
    checkRailRequirements(spei, { userName: "Diego Gómez", documentId: "GODE561231GR8" });
    checkRailRequirements(spei, { userName: "Diego Gómez", documentId: "GODE561231HDFRRN09" });
    const err = failure(spei, { userName: "Diego Gómez", documentId: "529.982.247-25" });
    assert.equal(err.details?.reason, "malformed");
    assert.match((err.details?.malformedFields as FieldProblem[])[0]!.help, /RFC/);
  });

  test("PSE wants a Colombian document number", () => {
    checkRailRequirements(pse, { userName: "Camila Rojas", userEmail: "c@example.co", documentId: "1234567890" });
    assert.equal(failure(pse, { userName: "Camila Rojas", userEmail: "c@example.co", documentId: "12-34" }).details?.reason, "malformed");
  });

  test("OXXO wants phone, name, email and a document; a bad phone is malformed", () => {
    const ok = { userPhone: "+525512345678", userName: "Luis Pérez", userEmail: "luis@example.mx", documentId: "GODE561231GR8" };
    checkRailRequirements(cash, ok);
    const missing = failure(cash, {});
    assert.deepEqual(keys(missing.details?.missingFields).sort(), ["documentId", "userEmail", "userName", "userPhone"]);
    const bad = failure(cash, { ...ok, userPhone: "call me" });
    assert.equal(bad.details?.reason, "malformed");
    assert.deepEqual(keys(bad.details?.malformedFields), ["userPhone"]);
    assert.equal(failure(cash, { ...ok, userPhone: "+52 55" }).details?.reason, "malformed", "too few digits");
  });
});

describe("checkRailRequirements: rails without requirements, and extra requirements", () => {
  test("a card rail needs nothing", () => {
    checkRailRequirements(card, {});
    assert.deepEqual(card.requires, []);
  });

  test("valid buyer data passes", () => {
    checkRailRequirements(pix, PIX_OK);
  });

  test("`extra` requirements are added to the rail's own", () => {
    const err = failure(card, {}, ["userName", "userEmail", "documentId"]);
    assert.equal(err.details?.reason, "missing");
    assert.deepEqual(keys(err.details?.missingFields).sort(), ["documentId", "userEmail", "userName"]);
    checkRailRequirements(card, { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "AB123456" }, ["userName", "userEmail", "documentId"]);
  });

  test("an extra requirement the rail already has is listed once", () => {
    const err = failure(pix, {}, ["userName", "userEmail", "documentId"]);
    assert.equal((err.details?.missingFields as FieldProblem[]).length, 3);
  });
});
