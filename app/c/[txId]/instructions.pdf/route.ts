// GET /c/{txId}/instructions.pdf: a pending payment's instructions (voucher, boleto, transfer
// details) as a PDF to keep or print, in the buyer's language. The transaction id is the
// buyer's credential, as for every /c page; nothing but what the instructions page shows.
// A payment with nothing (left) to print (paid, failed, expired, a card, an unknown id) answers
// its result page instead, in the buyer's language: a link kept from an earlier visit, or
// clicked on a page opened before the payment was paid, says what became of the payment.
import { config } from "@/lib/platform/config";
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney, resolveLocale } from "@/lib/i18n/locale";
import { messages } from "@/lib/i18n/messages";
import { railLabel } from "@/lib/i18n/rail-label";
import { buyerPayment } from "@/lib/checkout/buyer-payment";
import { instructionsFor, railOf } from "@/lib/checkout/instructions";
import { renderInstructionsPdf } from "@/lib/checkout/render-instructions-pdf";

function toResultPage(req: Request, txId: string): Response {
  const url = new URL(req.url);
  const target = new URL(`${config().APP_URL}/c/${encodeURIComponent(txId)}/result`);
  const locale = url.searchParams.get("locale");
  if (locale) target.searchParams.set("locale", locale);
  return new Response(null, { status: 303, headers: { location: target.toString(), "cache-control": "no-store" } });
}

export async function GET(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  const tx = await buyerPayment(txId);
  if (!tx || tx.status !== "pending") return toResultPage(req, txId);
  const { locale, formatTag } = resolveLocale(new URL(req.url).searchParams.get("locale"), req.headers.get("accept-language"));
  const t = messages(locale);
  const ins = instructionsFor(tx, t);
  if (!ins.printable) return toResultPage(req, txId);
  const pdf = await renderInstructionsPdf({
    t,
    merchantName: tx.merchantName,
    title: t.payWith[tx.method] ?? railLabel(t, railOf(tx), tx.railName),
    amount: formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag),
    order: tx.merchantOrderId ?? tx.id,
    deadlineLabel: ins.kind === "boleto" ? t.dueDate : t.payBeforeLabel,
    deadline: formatDateTime(tx.expiresAt, formatTag, tx.country),
    sandbox: tx.environment === "sandbox",
    ins,
  });
  const name = `${(tx.merchantOrderId ?? tx.id).replace(/[^0-9A-Za-z._-]/g, "_").slice(0, 60)}.pdf`;
  return new Response(new Uint8Array(pdf), { status: 200, headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" } });
}
