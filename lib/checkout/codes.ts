// Scannable codes for the provider pages, drawn on the server as SVG data URLs (no script, and
// the CSP allows data: images only). The two libraries load on first use: bwip-js alone is 2 MiB
// of source a server kept in memory from its start for the few boleto and OXXO pages it draws.

const dataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

export async function qrDataUrl(text: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return dataUrl(await QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" }));
}

export async function barcodeDataUrl(text: string): Promise<string> {
  const { default: bwipjs } = await import("bwip-js/node");
  return dataUrl(bwipjs.toSVG({ bcid: "code128", text, height: 14, includetext: false, paddingwidth: 8, paddingheight: 4, backgroundcolor: "FFFFFF" }));
}
