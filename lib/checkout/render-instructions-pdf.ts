// A pending payment's instructions as a PDF the buyer keeps or prints (an OXXO voucher, a
// boleto, SPEI transfer details): who is paid, the amount, the deadline, the values with their
// labels, the barcode or QR code, in the buyer's language. pdfkit's standard fonts cover Latin-1
// (WinAnsi), which holds every letter of es and pt-BR. pdfkit, qrcode and bwip-js load on the
// first PDF (about 5 MiB of source a server otherwise holds from its start for a rare download).
import type { Instructions } from "@/lib/checkout/instructions";
import type { Messages } from "@/lib/i18n/messages";

export type InstructionsPdf = { t: Messages; merchantName: string; title: string; amount: string; order: string; deadlineLabel: string; deadline: string; sandbox: boolean; ins: Instructions };

// Intl puts narrow and thin no-break spaces in dates and amounts; WinAnsi has neither.
const latin1 = (s: string) => s.replace(/[\u202f\u2009\u2007]/g, " ");

export async function renderInstructionsPdf(p: InstructionsPdf): Promise<Buffer> {
  const [{ default: PDFDocument }, { default: QRCode }, { default: bwipjs }] = await Promise.all([import("pdfkit"), import("qrcode"), import("bwip-js/node")]);
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: latin1(`${p.title} - ${p.merchantName}`), Author: "Latam Payments" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  const text = (s: string) => latin1(s);

  if (p.sandbox) doc.font("Helvetica-Bold").fontSize(10).fillColor("#92400e").text(text(p.t.testMode)).moveDown(0.5).fillColor("#000000");
  doc.font("Helvetica").fontSize(11).text(text(p.t.payTo(p.merchantName)));
  doc.font("Helvetica-Bold").fontSize(20).text(text(p.title));
  doc.moveDown(0.3).font("Helvetica-Bold").fontSize(26).text(text(p.amount));
  doc.font("Helvetica").fontSize(11).text(text(`${p.t.order}: ${p.order}`));
  doc.moveDown(0.5).font("Helvetica-Bold").fontSize(13).text(text(`${p.deadlineLabel}: ${p.deadline}`));

  doc.moveDown().font("Helvetica").fontSize(11).text(text(p.ins.steps));
  if (p.ins.barcode) {
    const png = await bwipjs.toBuffer({ bcid: "code128", text: p.ins.barcode, scale: 2, height: 14, includetext: false, paddingwidth: 8, paddingheight: 4, backgroundcolor: "FFFFFF" });
    doc.moveDown().image(png, { fit: [420, 90] });
  }
  if (p.ins.qr) {
    const png = await QRCode.toBuffer(p.ins.qr, { margin: 2, errorCorrectionLevel: "M", width: 360 });
    doc.moveDown().image(png, { fit: [180, 180] });
  }
  doc.moveDown();
  for (const f of p.ins.fields) {
    doc.font("Helvetica").fontSize(10).fillColor("#475569").text(text(f.label));
    const value = f.clabe ? `${f.value.slice(0, 3)} ${f.value.slice(3, 6)} ${f.value.slice(6, 17)} ${f.value.slice(17)}` : f.value;
    doc.font("Courier-Bold").fontSize(f.large ? 16 : 12).fillColor("#000000").text(text(value));
    doc.moveDown(0.6);
  }
  doc.moveDown().font("Helvetica").fontSize(9).fillColor("#475569").text(text(p.t.poweredBy));
  doc.end();
  return done;
}
