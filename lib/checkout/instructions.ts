// What a buyer needs to pay a pending charge by instructions (PIX code, CLABE, voucher, boleto),
// one shape for the sandbox provider's page, a real provider's instructions page and the
// printable PDF, so the three always show the same values under the same labels.
import { sandboxInstructions } from "@/lib/payments/sandbox-instructions";
import { railById, type Rail } from "@/lib/rails/rails";
import type { BuyerPayment } from "@/lib/checkout/buyer-payment";
import type { Messages } from "@/lib/i18n/messages";

export type InstructionKind = "pix" | "spei" | "oxxo" | "boleto" | "card" | "transfer";
/**
 * A value the buyer copies or reads; `clabe` is shown in its 3-3-11-1 groups, `groups` (a boleto's
 * digitable line, a voucher reference) in groups a line may wrap between but never inside.
 */
export type InstructionField = { key: string; label: string; value: string; copy: boolean; large?: boolean; clabe?: boolean; groups?: string[] };

/** How a boleto line (its own blocks) or a voucher reference (fours) is read out and written down. */
export function readingGroups(key: string, value: string): string[] | undefined {
  if (key === "line") return value.trim().split(/\s+/);
  if ((key === "oxxoReference" || key === "barcode") && /^[0-9 ]{8,}$/.test(value)) return value.replace(/\s/g, "").match(/.{1,4}/g) ?? undefined;
  return undefined;
}
export type Instructions = {
  kind: InstructionKind;
  steps: string;
  fields: InstructionField[];
  /** Drawn as a QR code (PIX) or a barcode (voucher, boleto). */
  qr?: string;
  barcode?: string;
  /** A voucher or boleto: something to print or keep. */
  printable: boolean;
};

const KINDS = new Set(["pix", "spei", "oxxo", "boleto", "card"]);

function kindOf(method: string): InstructionKind {
  return KINDS.has(method) ? (method as InstructionKind) : "transfer";
}

export function stepsFor(kind: InstructionKind, t: Messages): string {
  return { pix: t.pixSteps, spei: t.speiSteps, oxxo: t.oxxoSteps, boleto: t.boletoSteps, card: t.cardStandIn, transfer: t.transferSteps }[kind];
}

/**
 * Who receives a SPEI transfer, as Mexican bank apps ask beside the CLABE: the merchant the buyer
 * pays (the name on the page's header; the data holds no other legal name).
 */
function beneficiaryField(tx: Pick<BuyerPayment, "merchantName">, t: Messages): InstructionField[] {
  return tx.merchantName ? [{ key: "beneficiary", label: t.beneficiary, value: tx.merchantName, copy: true }] : [];
}

/** The sandbox provider's instructions (deterministic test data from the transaction id). */
export function sandboxPaymentInstructions(tx: BuyerPayment, t: Messages): Instructions {
  const info = sandboxInstructions(tx);
  const kind = info.kind;
  switch (info.kind) {
    case "pix":
      return { kind, steps: t.pixSteps, fields: [{ key: "pixCode", label: t.pixCode, value: info.code, copy: true }], qr: info.code, printable: false };
    case "spei":
      return {
        kind,
        steps: t.speiSteps,
        fields: [
          { key: "clabe", label: t.clabe, value: info.clabe, copy: true, large: true, clabe: true },
          ...beneficiaryField(tx, t),
          { key: "reference", label: t.reference, value: info.reference, copy: true },
          { key: "bank", label: t.bank, value: info.bank, copy: false },
        ],
        printable: true,
      };
    case "oxxo":
      return { kind, steps: t.oxxoSteps, fields: [{ key: "oxxoReference", label: t.oxxoReference, value: info.reference, copy: true, large: true, groups: readingGroups("oxxoReference", info.reference) }], barcode: info.reference, printable: true };
    case "boleto":
      return { kind, steps: t.boletoSteps, fields: [{ key: "line", label: t.boletoLine, value: info.line, copy: true, groups: readingGroups("line", info.line) }], barcode: info.line.replace(/\D/g, ""), printable: true };
    case "card":
      return { kind, steps: t.cardStandIn, fields: [], printable: false };
    default:
      return { kind: "transfer", steps: t.transferSteps, fields: [{ key: "reference", label: t.reference, value: info.reference, copy: true, large: true }, { key: "bank", label: t.bank, value: info.bank, copy: false }], printable: true };
  }
}

/** A real provider's instructions (its JSON answer): the known keys first, under their labels; any other text value after. */
export function providerPaymentInstructions(tx: BuyerPayment, t: Messages): Instructions {
  const kind = kindOf(tx.method);
  // A SPEI answer without its beneficiary gets the merchant's name (the one a provider gives wins).
  const given = (tx.instructions ?? {}) as Record<string, unknown>;
  const raw = kind === "spei" && given.beneficiary === undefined && tx.merchantName ? { ...given, beneficiary: tx.merchantName } : given;
  const known: Array<[string, string, Partial<InstructionField>]> = [
    ["pixCode", t.pixCode, {}],
    ["clabe", t.clabe, { large: true, clabe: true }],
    ["beneficiary", t.beneficiary, {}],
    ["barcode", t.oxxoReference, { large: true }],
    ["line", t.boletoLine, {}],
    ["reference", t.reference, {}],
    ["bank", t.bank, {}],
  ];
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : null);
  const fields: InstructionField[] = [];
  for (const [key, label, extra] of known) {
    const v = text(raw[key]);
    if (v) fields.push({ key, label, value: v, copy: key !== "bank", groups: readingGroups(key, v), ...extra, ...(extra.clabe && !/^\d{18}$/.test(v) ? { clabe: false } : {}) });
  }
  for (const [key, v] of Object.entries(raw)) {
    const value = text(v);
    if (value && !known.some(([k]) => k === key) && key !== "amount" && key !== "currency") fields.push({ key, label: key, value, copy: true });
  }
  const barcode = text(raw.barcode) ?? (text(raw.line)?.replace(/\D/g, "") || null);
  return { kind, steps: stepsFor(kind, t), fields, ...(text(raw.pixCode) ? { qr: text(raw.pixCode)! } : {}), ...(barcode && kind !== "pix" ? { barcode } : {}), printable: kind !== "pix" && kind !== "card" };
}

export function instructionsFor(tx: BuyerPayment, t: Messages): Instructions {
  return tx.environment === "sandbox" && tx.provider === "sandbox" ? sandboxPaymentInstructions(tx, t) : providerPaymentInstructions(tx, t);
}

/** The rail of a payment, for its buyer-facing name and icon. */
export function railOf(tx: Pick<BuyerPayment, "paymentMethodId">): Rail | undefined {
  return railById(tx.paymentMethodId);
}
