// The payer's authorization page's read (/pay/mandate/{token}): by public token only, what a page
// the payer holds may show, and the code their bank app scans.
//
// Production: the code is the one the mandate's PSP gave for its recurrence (API Pix
// `dadosQR.pixCopiaECola`, JORNADA_2: a BR Code whose field 80 points the payer's bank at the
// recurrence's location; lib/providers/http-psp/pix-automatico.ts). The sandbox has no PSP: its
// code is a dynamic PIX BR Code (lib/payments/br-code.ts) whose location names this mandate, and
// the simulate endpoint plays the bank that would read it.
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { brCode } from "@/lib/payments/br-code";

export async function publicMandate(token: string) {
  if (!/^[A-Za-z0-9]{24}$/.test(token)) return null;
  const m = await db().mandate.findUnique({ where: { token } });
  if (!m) return null;
  const shop = await db().shop.findUnique({ where: { id: m.shopId }, select: { name: true } });
  if (m.providerCode) return { mandate: m, shopName: shop?.name ?? null, payload: m.providerCode };
  const location = m.environment === "sandbox" ? `pix.sandbox.latampayments.example/rec/${m.id}` : `${new URL(config().APP_URL).host}/pix/rec/${m.id}`;
  const payload = brCode({
    url: location,
    ...(m.amount !== null ? { amountMinor: m.amount } : {}),
    merchantName: shop?.name ?? "PIX",
    // A shop has no city on file; the code's field 60 is required, so the country stands in.
    merchantCity: "BRASIL",
    txid: m.id.replace(/^mdt_/, ""),
  });
  return { mandate: m, shopName: shop?.name ?? null, payload };
}

/** A CPF shown as banks show it (***.982.247-**); a CNPJ, a company's public number, in full. */
export function maskedDocument(document: string): string {
  const d = document.replace(/\D/g, "");
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : document;
}
