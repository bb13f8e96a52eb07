// Buyer data each rail needs before any provider is called (decisions.md, Pay-ins). Missing or
// malformed data is 422 missing_required_fields with items {key, type, label, help}.
import { z } from "zod";
import { AppError } from "@/lib/platform/errors";
import { isColombianDocument, isCpfOrCnpjValid, isCurpShape, isRfcShape } from "@/lib/rails/document-rules";
import type { Rail, Requirement } from "@/lib/rails/rails";
import type { CreatePaymentInput } from "@/lib/payments/schema";

export type FieldProblem = { key: string; type: string; label: string; help: string };

const FIELD: Record<Requirement, { type: string; label: string; help: string }> = {
  userName: { type: "string", label: "Full name", help: "The buyer's first and last name (at least two words, up to 120 characters)." },
  userEmail: { type: "email", label: "Email", help: "A valid email address of the buyer." },
  userPhone: { type: "phone", label: "Phone", help: "The buyer's phone with country code, e.g. +525512345678." },
  documentId: { type: "document", label: "Document", help: "The buyer's identity document." },
};

const DOCUMENT_HELP: Record<Rail["documentRule"], string> = {
  cpf_cnpj: "A Brazilian CPF (11 digits) or CNPJ (14 characters) with valid check digits.",
  rfc_curp: "A Mexican RFC (12-13 characters) or CURP (18 characters).",
  co_document: "A Colombian CC, CE or NIT number (6-10 digits).",
  any: "The buyer's identity document number.",
};

const emailOk = (v: string) => z.email().safeParse(v).success;

function wellFormed(key: Requirement, value: string, rail: Rail): boolean {
  switch (key) {
    case "userName":
      return value.trim().split(/\s+/).length >= 2;
    case "userEmail":
      return emailOk(value);
    case "userPhone":
      return /^\+?[0-9 ()-]{8,20}$/.test(value) && value.replace(/\D/g, "").length >= 8;
    case "documentId":
      switch (rail.documentRule) {
        case "cpf_cnpj":
          return isCpfOrCnpjValid(value);
        case "rfc_curp":
          return isRfcShape(value) || isCurpShape(value);
        case "co_document":
          return isColombianDocument(value);
        default:
          return value.trim().length >= 4;
      }
  }
}

/** Throws missing_required_fields when the rail's buyer data is absent or malformed. */
export function checkRailRequirements(rail: Rail, input: Pick<CreatePaymentInput, Requirement>, extra: Requirement[] = []): void {
  const required = [...new Set([...rail.requires, ...extra])];
  const missing: FieldProblem[] = [];
  const malformed: FieldProblem[] = [];
  for (const key of required) {
    const value = input[key]?.trim();
    const field = { key, ...FIELD[key], ...(key === "documentId" ? { help: DOCUMENT_HELP[rail.documentRule] } : {}) };
    if (!value) missing.push(field);
    else if (!wellFormed(key, value, rail)) malformed.push(field);
  }
  if (missing.length === 0 && malformed.length === 0) return;
  const reason = missing.length ? "missing" : "malformed";
  const names = [...missing, ...malformed].map((f) => f.key).join(", ");
  throw new AppError("missing_required_fields", `${rail.name} needs valid buyer data: ${names}.`, {
    param: (missing[0] ?? malformed[0])!.key,
    details: { reason, ...(missing.length ? { missingFields: missing } : {}), ...(malformed.length ? { malformedFields: malformed } : {}) },
  });
}
