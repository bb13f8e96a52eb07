// The PDF receipt of a settlement batch, rendered by a job with pdfkit (a well-kept PDF library,
// pure JavaScript, standard fonts built in): merchant, period, per-rail and per-currency totals,
// fees, net, destination, and the txHash once paid. Stored on the batch; `settlement.pdf_ready`
// tells the merchant (again when a payment adds the txHash).
import PDFDocument from "pdfkit";
import { db } from "@/lib/db";
import { emitEvent } from "@/lib/events/emit";
import { toDecimalString } from "@/lib/money/amount";
import { presentSettlement } from "@/lib/settlements/present";
import type { Settlement } from "@/lib/generated/prisma/client";

type Line = { paymentMethodId: string; railName: string; currency: string; count: number; amountLocal: string; amountUsd: string; netUsd: string };

const usd = (minor: bigint) => `${toDecimalString(minor, "USD")} USD`;
const utc = (d: Date) => d.toISOString().replace("T", " ").slice(0, 19) + " UTC";

export function renderReceipt(s: Settlement, merchantName: string): Promise<Buffer> {
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

  doc.moveDown().font("Helvetica-Bold").fontSize(12).text("Payments swept, per rail and currency");
  doc.font("Helvetica").fontSize(10);
  const lines = (s.breakdown as Line[]) ?? [];
  if (lines.length === 0) doc.text("No payment settled into the available balance since the last batch (adjustments only).");
  for (const l of lines) {
    doc.text(`${l.railName} (${l.paymentMethodId}), ${l.currency}: ${l.count} payment(s), ${toDecimalString(BigInt(l.amountLocal), l.currency)} ${l.currency} = ${usd(BigInt(l.amountUsd))}; net ${usd(BigInt(l.netUsd))}`);
  }
  const swept = lines.reduce((n, l) => n + BigInt(l.netUsd), 0n);

  doc.moveDown().font("Helvetica-Bold").fontSize(12).text("Totals");
  doc.font("Helvetica").fontSize(10);
  doc.text(`Transactions: ${s.transactionCount}`);
  doc.text(`Net of the payments swept: ${usd(swept)}`);
  doc.text(`Adjustments (refunds, chargebacks, reserve releases, deposits): ${usd(s.grossUsd - swept)}`);
  doc.text(`Gross (available balance at close): ${usd(s.grossUsd)}`);
  doc.text(`Withdrawal fee: ${usd(s.feeUsd)}`);
  doc.font("Helvetica-Bold").text(`Net sent: ${usd(s.netUsd)}`);

  doc.moveDown().font("Helvetica-Bold").fontSize(12).text("Destination");
  doc.font("Helvetica").fontSize(10);
  doc.text(`${s.asset} on ${s.network}: ${s.address}`);
  doc.text(s.txHash ? `Transaction hash: ${s.txHash}` : s.status === "failed" ? `Failed: ${s.failureReason ?? "unknown"}; the gross is back in the available balance.` : "Transaction hash: pending (the transfer is on its way).");
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
