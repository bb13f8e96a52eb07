import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { recipientIssues } from "@/lib/payouts/recipient";
import { PRODUCTION_PAYOUT_METHODS } from "@/lib/payouts/methods";
import { clabeCheckDigit } from "@/lib/rails/document-rules";

const method = (id: string) => PRODUCTION_PAYOUT_METHODS.find((m) => m.id === id)!;
const paths = (id: string, r: Record<string, string | undefined> | undefined) => recipientIssues(method(id), r as never).map((i) => i.path);
const clabe = "00218001234567890" + clabeCheckDigit("00218001234567890");

test("SPEI: CLABE check digit, 3-digit bankCode, RFC or CURP", () => {
  const ok = { name: "Carlos Ruiz", account: clabe, bankCode: "002", documentId: "GODE561231GR8" };
  assert.deepEqual(paths("po_mx_spei", ok), []);
  assert.deepEqual(paths("po_mx_spei", { ...ok, documentType: "CURP", documentId: "GODE561231HDFRRN09" }), []);
  assert.deepEqual(paths("po_mx_spei", { ...ok, account: clabe.slice(0, 17) + ((Number(clabe[17]) + 1) % 10) }), ["recipient.account"]);
  assert.deepEqual(paths("po_mx_spei", { ...ok, bankCode: "2" }), ["recipient.bankCode"]);
  // A Banamex (002) CLABE sent with BBVA's code (012) is refused on the bank code.
  assert.deepEqual(paths("po_mx_spei", { ...ok, bankCode: "012" }), ["recipient.bankCode"]);
  assert.match(recipientIssues(method("po_mx_spei"), { ...ok, bankCode: "012" } as never)[0]!.message, /institution 002/);
  assert.deepEqual(paths("po_mx_spei", { ...ok, documentType: "RFC", documentId: "GODE561231HDFRRN09" }), ["recipient.documentId"]);
  assert.deepEqual(paths("po_mx_spei", {}), ["recipient.name", "recipient.account", "recipient.documentId", "recipient.bankCode"]);
  assert.deepEqual(paths("po_mx_spei", undefined), ["recipient"]);
});

test("PIX: the key is checked by accountType; the document is a CPF or CNPJ", () => {
  const base = { name: "Ana Souza", documentId: "529.982.247-25" };
  for (const [accountType, account] of [["CPF", "52998224725"], ["CNPJ", "11.222.333/0001-81"], ["EMAIL", "ana@example.com"], ["PHONE", "+5511987654321"], ["EVP", randomUUID()]]) {
    assert.deepEqual(paths("po_br_pix", { ...base, accountType, account }), [], `${accountType} ${account}`);
  }
  for (const [accountType, account] of [["CPF", "11111111111"], ["CNPJ", "11222333000180"], ["EMAIL", "ana@"], ["PHONE", "11987654321"], ["EVP", "not-a-uuid"]]) {
    assert.deepEqual(paths("po_br_pix", { ...base, accountType, account }), ["recipient.account"], `${accountType} ${account}`);
  }
  assert.deepEqual(paths("po_br_pix", { ...base, account: "x" }), ["recipient.accountType"]);
  assert.deepEqual(paths("po_br_pix", { ...base, accountType: "IBAN", account: "x" }), ["recipient.accountType"]);
  assert.deepEqual(paths("po_br_pix", { ...base, accountType: "EMAIL", account: "a@b.co", documentType: "RFC" }), ["recipient.documentType"]);
});

test("bank transfers (CO, PE): numeric account and bank code, CHECKING or SAVINGS, the country's documents", () => {
  const co = { name: "Camila Rojas", account: "00123456789", bankCode: "007", documentId: "1020304050", documentType: "CC", accountType: "SAVINGS" };
  assert.deepEqual(paths("po_co_bank", co), []);
  assert.deepEqual(paths("po_co_bank", { ...co, account: "12ab" }), ["recipient.account"]);
  assert.deepEqual(paths("po_co_bank", { ...co, accountType: "CURRENT" }), ["recipient.accountType"]);
  assert.deepEqual(paths("po_co_bank", { ...co, documentType: "DNI" }), ["recipient.documentType"]);
  assert.deepEqual(paths("po_pe_bank", { ...co, documentType: "DNI", documentId: "12345678" }), []);
  assert.deepEqual(paths("po_pe_bank", { ...co, documentType: "RUC", documentId: "20123456789" }), []);
  assert.deepEqual(paths("po_pe_bank", { ...co, documentType: "DNI", documentId: "1234" }), ["recipient.documentId"]);
});
