// The QR of an order as SVG (the `qrcode` package): error correction M, a quiet zone of 2
// modules, crisp at any size. The page inlines it; /qr/{token}/qr.svg serves it for integrators.
import QRCode from "qrcode";

export function qrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#0f172a", light: "#ffffff" } });
}
