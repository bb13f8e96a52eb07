// The PDF receipt of a settlement batch, rendered by a job with pdfkit (a well-kept PDF library,
// pure JavaScript, standard fonts built in): merchant, period, destination (and the txHash once
// paid), the payments per rail and currency (gross, fees, reserve held, net), and a
// reconciliation a bookkeeper can tick off: every movement of the available balance since the
// previous batch, with counts and totals, adding up to the gross, less the fee, = the amount paid. Stored on the batch; `settlement.pdf_ready`
// tells the merchant (again when a payment adds the txHash). pdfkit loads with the first receipt:
// the job runs in every server, and the library is megabytes of source it would hold from start.
import { db } from "@/lib/platform/db";
import { emitEvent } from "@/lib/platform/outbox/emit";
import { toDecimalString } from "@/lib/money/amount";
import { presentSettlement } from "@/lib/settlements/present";
import { STATEMENT_LABELS, type StatementLine, type WithdrawalsSummary } from "@/lib/settlements/statement";
import type { Settlement } from "@/lib/generated/prisma/client";

type Line = { paymentMethodId: string; railName: string; currency: string; count: number; amountLocal: string; amountUsd: string; feesUsd?: string; financingUsd?: string; reserveUsd?: string; netUsd: string };
/** Batches closed before the statement was kept hold the per-rail lines only (an array). */
type Breakdown = Line[] | { payments: Line[]; lines: StatementLine[]; withdrawals: WithdrawalsSummary };

const usd = (minor: bigint) => `${toDecimalString(minor, "USD")} USD`;
const num = (minor: bigint) => toDecimalString(minor, "USD");
const utc = (d: Date) => d.toISOString().replace("T", " ").slice(0, 19) + " UTC";

/** One row of a table: each cell at its column, all on the same line (the text reads back in order). */
function row(doc: PDFKit.PDFDocument, cells: string[], widths: number[], opts: { bold?: boolean; rule?: boolean } = {}) {
  const x0 = doc.page.margins.left;
  if (doc.y > doc.page.height - doc.page.margins.bottom - 30) doc.addPage();
  const y = doc.y;
  doc.font(opts.bold ? "Helvetica-Bold" : "Helvetica");
  let x = x0;
  let bottom = y;
  cells.forEach((c, i) => {
    const right = i > 0;
    doc.text(c, x, y, { width: widths[i]! - 6, align: right ? "right" : "left" });
    bottom = Math.max(bottom, doc.y);
    x += widths[i]!;
  });
  if (opts.rule) doc.moveTo(x0, bottom + 1).lineTo(x0 + widths.reduce((a, b) => a + b, 0), bottom + 1).lineWidth(0.5).stroke();
  doc.x = x0;
  doc.y = bottom + 3;
}

function heading(doc: PDFKit.PDFDocument, text: string) {
  doc.x = doc.page.margins.left;
  doc.moveDown().font("Helvetica-Bold").fontSize(12).text(text);
  doc.moveDown(0.3).fontSize(9);
}

export async function renderReceipt(s: Settlement, merchantName: string): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: `Settlement ${s.id}`, Author: "Latam Payments" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));

  doc.font("Helvetica-Bold").fontSize(18).text("Settlement receipt");
  doc.moveDown(0.5).font("Helvetica").fontSize(10);
  doc.text(`Merchant: ${merchantName} (${s.merchantId})`);
  doc.text(`Settlement: ${s.id}   Environment: ${s.environment}${s.environment === "sandbox" ? " (test: no real money)" : ""}`);
  doc.text(`Period: ${utc(s.periodFrom)} to ${utc(s.periodTo)}`);
  doc.text(`Status: ${s.status}   Closed: ${utc(s.closedAt)}${s.paidAt ? `   Paid: ${utc(s.paidAt)}` : ""}`);
  doc.text(`Destination: ${s.asset} on ${s.network}: ${s.address}`);
  doc.text(s.txHash ? `Transaction hash: ${s.txHash}` : s.status === "failed" ? `Failed: ${s.failureReason ?? "unknown"}; the gross is back in the available balance.` : "Transaction hash: pending (the transfer is on its way).");

  const b = (s.breakdown ?? []) as Breakdown;
  const payments = Array.isArray(b) ? b : b.payments;
  const statement = Array.isArray(b) ? null : b;

  heading(doc, "Payments in this batch, per rail and currency");
  if (payments.length === 0) doc.font("Helvetica").text("No payment settled into the available balance since the last batch.");
  else {
    const w = [140, 40, 85, 58, 52, 58, 62];
    row(doc, ["Rail", "Count", "Amount (local)", "Gross USD", "Fees USD", "Reserve held", "Net USD"], w, { bold: true, rule: true });
    const sum = (f: (l: Line) => string | undefined) => payments.reduce((n, l) => n + BigInt(f(l) ?? "0"), 0n);
    for (const l of payments) {
      row(doc, [`${l.railName} (${l.paymentMethodId})`, String(l.count), `${toDecimalString(BigInt(l.amountLocal), l.currency)} ${l.currency}`, num(BigInt(l.amountUsd)), l.feesUsd ? num(BigInt(l.feesUsd)) : "-", l.reserveUsd ? num(BigInt(l.reserveUsd)) : "-", num(BigInt(l.netUsd))], w);
    }
    // Shop-paid installment plans: the acquirer's financing fee, on its own line (in the total's fees).
    const financing = sum((l) => l.financingUsd);
    if (financing > 0n) row(doc, ["Installment financing fees", "", "", "", num(financing), "", ""], w);
    row(doc, ["Total", String(payments.reduce((n, l) => n + l.count, 0)), "", num(sum((l) => l.amountUsd)), num(sum((l) => l.feesUsd) + financing), num(sum((l) => l.reserveUsd)), num(sum((l) => l.netUsd))], w, { bold: true });
  }

  heading(doc, "Reconciliation: the available balance since the previous batch");
  const w = [330, 60, 105];
  row(doc, ["Movement", "Count", "USD"], w, { bold: true, rule: true });
  if (statement) {
    for (const l of statement.lines) {
      row(doc, [STATEMENT_LABELS[l.kind] ?? l.kind, String(l.count), num(BigInt(l.amountUsd))], w);
      if (l.kind === "withdrawal_requested" && statement.withdrawals.count > 0) {
        row(doc, [`   of which withdrawal fees (${statement.withdrawals.count} withdrawals of ${num(BigInt(statement.withdrawals.amountUsd))} USD)`, "", num(-BigInt(statement.withdrawals.feeUsd))], w);
      }
    }
    if (statement.lines.length === 0) row(doc, ["No movement", "0", num(0n)], w);
  } else {
    const swept = payments.reduce((n, l) => n + BigInt(l.netUsd), 0n);
    row(doc, ["Payments settled (net of fees and reserve)", String(payments.reduce((n, l) => n + l.count, 0)), num(swept)], w);
    row(doc, ["Other movements (refunds, chargebacks, reserve releases, deposits, withdrawals)", "", num(s.grossUsd - swept)], w);
  }
  row(doc, ["Available balance at close (gross)", "", num(s.grossUsd)], w, { bold: true });
  row(doc, ["Withdrawal fee of this batch", "", num(-s.feeUsd)], w);
  row(doc, ["Paid to the destination (net)", "", num(s.netUsd)], w, { bold: true });

  heading(doc, "Totals");
  doc.font("Helvetica").fontSize(10);
  doc.text(`Transactions: ${s.transactionCount}`);
  doc.text(`Gross (available balance at close): ${usd(s.grossUsd)}`);
  doc.text(`Withdrawal fee: ${usd(s.feeUsd)}`);
  doc.font("Helvetica-Bold").text(`Net sent: ${usd(s.netUsd)}`);
  doc.end();
  return done;
}

/** The job: batches whose receipt is missing or out of date, rendered and stored (a few at a time). */
export async function renderDueReceipts(opts: { limit?: number } = {}): Promise<{ rendered: number }> {
  const due = await db().settlement.findMany({ where: { receiptStale: true }, take: opts.limit ?? 10, orderBy: { closedAt: "asc" } });
  let rendered = 0;
  for (const s of due) {
    const merchant = await db().merchant.findUnique({ where: { id: s.merchantId }, select: { name: true } });
    const pdf = await renderReceipt(s, merchant?.name ?? s.merchantId);
    const stored = await db().$transaction(async (tx) => {
      // Only if nothing changed meanwhile (a payment right now renders it once more next run).
      const { count } = await tx.settlement.updateMany({ where: { id: s.id, status: s.status, receiptStale: true }, data: { receipt: new Uint8Array(pdf), receiptReady: true, receiptStale: false } });
      if (count !== 1) return false;
      const row = await tx.settlement.findUniqueOrThrow({ where: { id: s.id } });
      await emitEvent(tx, { merchantId: s.merchantId, environment: s.environment, shopId: null, type: "settlement.pdf_ready", object: presentSettlement(row) });
      return true;
    });
    if (stored) rendered++;
  }
  return { rendered };
}
