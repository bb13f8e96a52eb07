// Scannable codes for the provider pages, drawn on the server as SVG data URLs (no script, and
// the CSP allows data: images only).
import QRCode from "qrcode";
import bwipjs from "bwip-js/node";

const dataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

export async function qrDataUrl(text: string): Promise<string> {
  return dataUrl(await QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" }));
}

export function barcodeDataUrl(text: string): string {
  return dataUrl(bwipjs.toSVG({ bcid: "code128", text, height: 14, includetext: false, paddingwidth: 8, paddingheight: 4, backgroundcolor: "FFFFFF" }));
}
