// Beneficiary checks per rail (API reference 4.7; decisions.md Payouts, Recipient validation),
// made before anything is written or debited. Every problem is reported at once.
import { isColombianDocument, isCurpShape, isRfcShape, isValidClabe, isValidCnpj, isValidCpf } from "@/lib/rails/document-rules";
import type { Issue } from "@/lib/platform/contract/validation";
import type { PayoutMethod } from "@/lib/payouts/methods";
import type { Recipient } from "@/lib/payouts/schema";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const BR_PHONE = /^\+55\d{10,11}$/;
// The choices per rail, exported for the dashboard's send form (its selects offer exactly these).
export const SPEI_DOCUMENT_TYPES = ["RFC", "CURP"] as const;
export const PIX_KEY_TYPES = ["CPF", "CNPJ", "EMAIL", "PHONE", "EVP"] as const;
export const PIX_DOCUMENT_TYPES = ["CPF", "CNPJ"] as const;
export const BANK_ACCOUNT_TYPES = ["CHECKING", "SAVINGS"] as const;
export const DOC_TYPES_BY_COUNTRY: Record<string, string[]> = { COL: ["CC", "CE", "NIT", "PP"], PER: ["DNI", "CE", "RUC", "PP"] };

// Takes only what it reads of the method, so the dashboard's send form runs the same checks as you type.
export function recipientIssues(method: Pick<PayoutMethod, "rail" | "country">, r: Recipient | undefined): Issue[] {
  const issues: Issue[] = [];
  const add = (field: string, message: string) => issues.push({ path: `recipient.${field}`, message });
  if (!r) return [{ path: "recipient", message: "Required: name, account and documentId at least" }];
  const has = (v: string | undefined): v is string => typeof v === "string" && v.trim() !== "";
  for (const f of ["name", "account", "documentId"] as const) if (!has(r[f])) add(f, "Required");
  if (has(r.email) && !EMAIL.test(r.email)) add("email", "Not an email address");
  const account = r.account?.trim() ?? "";
  const doc = (r.documentId ?? "").trim();
  const docType = r.documentType?.trim().toUpperCase();

  switch (method.rail) {
    case "spei": {
      if (account && !isValidClabe(account)) add("account", "Must be an 18-digit CLABE with a valid check digit");
      if (!has(r.bankCode)) add("bankCode", "Required for SPEI");
      else if (!/^\d{3}$/.test(r.bankCode.trim())) add("bankCode", "Must be the 3-digit institution code");
      // The CLABE's first three digits name its bank (rails.md): money sent with another bank's
      // code goes astray or comes back days later.
      else if (isValidClabe(account) && account.slice(0, 3) !== r.bankCode.trim()) add("bankCode", `Does not match the CLABE: it belongs to institution ${account.slice(0, 3)}`);
      if (docType && !(SPEI_DOCUMENT_TYPES as readonly string[]).includes(docType)) add("documentType", "Must be RFC or CURP");
      if (doc) {
        const ok = docType === "RFC" ? isRfcShape(doc) : docType === "CURP" ? isCurpShape(doc) : isRfcShape(doc) || isCurpShape(doc);
        if (!ok) add("documentId", `Must be a valid ${docType ?? "RFC or CURP"}`);
      }
      break;
    }
    case "pix": {
      const kind = r.accountType?.trim().toUpperCase();
      if (!kind) add("accountType", "Required for PIX: CPF, CNPJ, EMAIL, PHONE or EVP");
      else if (account) {
        const ok =
          kind === "CPF" ? isValidCpf(account) : kind === "CNPJ" ? isValidCnpj(account) : kind === "EMAIL" ? EMAIL.test(account) : kind === "PHONE" ? BR_PHONE.test(account) : kind === "EVP" ? UUID_V4.test(account) : null;
        if (ok === null) add("accountType", "Must be CPF, CNPJ, EMAIL, PHONE or EVP");
        else if (!ok) add("account", kind === "PHONE" ? "Must be +55 followed by 10 or 11 digits" : kind === "EVP" ? "Must be a random (UUID v4) PIX key" : `Not a valid ${kind} PIX key`);
      }
      if (docType && !(PIX_DOCUMENT_TYPES as readonly string[]).includes(docType)) add("documentType", "Must be CPF or CNPJ");
      if (doc) {
        const ok = docType === "CPF" ? isValidCpf(doc) : docType === "CNPJ" ? isValidCnpj(doc) : isValidCpf(doc) || isValidCnpj(doc);
        if (!ok) add("documentId", "Must be a CPF or CNPJ with valid check digits");
      }
      break;
    }
    case "bank_transfer": {
      if (account && !/^\d{6,20}$/.test(account)) add("account", "Must be 6-20 digits");
      if (!has(r.bankCode)) add("bankCode", "Required for bank transfers");
      else if (!/^\d{1,10}$/.test(r.bankCode.trim())) add("bankCode", "Must be numeric");
      const accountType = r.accountType?.trim().toUpperCase();
      if (accountType && !(BANK_ACCOUNT_TYPES as readonly string[]).includes(accountType)) add("accountType", "Must be CHECKING or SAVINGS");
      const allowed = DOC_TYPES_BY_COUNTRY[method.country] ?? [];
      if (docType && !allowed.includes(docType)) add("documentType", `Must be one of ${allowed.join(", ")}`);
      if (doc) {
        const ok = method.country === "COL" ? (docType === "PP" || docType === "CE" ? /^[A-Z0-9]{4,20}$/i.test(doc) : isColombianDocument(doc)) : docType === "RUC" ? /^\d{11}$/.test(doc) : docType === "DNI" || !docType ? /^\d{8}$/.test(doc) : /^[A-Z0-9]{4,20}$/i.test(doc);
        if (!ok) add("documentId", `Not a valid ${docType ?? (method.country === "COL" ? "CC/NIT" : "DNI")} number`);
      }
      break;
    }
  }
  return issues;
}
