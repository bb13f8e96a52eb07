// The PIX BR Code (EMV merchant-presented QR, Banco Central do Brasil's "Manual de Padrões para
// Iniciação do Pix"): every PIX copy-and-paste code and QR of the service comes from here. Fields
// are ID (2 digits) + length (2 digits) + value; field 63 is the CRC16-CCITT-FALSE (polynomial
// 0x1021, initial 0xFFFF) of everything before it including "6304", as 4 uppercase hex digits. A
// wrong CRC or a missing amount (54) makes banking apps refuse the code.
import { toDecimalString } from "@/lib/money/amount";

const field = (id: string, value: string) => {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
};

/** Names and cities go in plain ASCII, upper case, within their field's maximum. */
const ascii = (s: string, max: number) =>
  s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9 .-]/g, " ").replace(/\s+/g, " ").trim().toUpperCase().slice(0, max) || "N A";

/** CRC16-CCITT-FALSE of `payload` (its UTF-8 bytes), 4 uppercase hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

export type BrCodeInput = {
  /** A PIX key (static) — or `url` for a dynamic code whose payload the PSP serves. */
  key?: string;
  url?: string;
  /** BRL minor units; omitted only for codes where the payer types the amount. */
  amountMinor?: bigint;
  merchantName: string;
  merchantCity: string;
  /** Our reference (txid): up to 25 letters and digits. */
  txid: string;
  /** Merchant category code, "0000" when not informed. */
  mcc?: string;
};

export function brCode(input: BrCodeInput): string {
  if (!input.key === !input.url) throw new Error("a BR Code carries either a PIX key or a dynamic URL");
  const account = field("00", "br.gov.bcb.pix") + (input.key ? field("01", input.key) : field("25", input.url!));
  const txid = input.txid.replace(/[^A-Za-z0-9]/g, "").slice(0, 25) || "***";
  const body =
    field("00", "01") +
    (input.url ? field("01", "12") : "") + // 12: a dynamic code, valid once
    field("26", account) +
    field("52", input.mcc ?? "0000") +
    field("53", "986") +
    (input.amountMinor !== undefined ? field("54", toDecimalString(input.amountMinor, "BRL")) : "") +
    field("58", "BR") +
    field("59", ascii(input.merchantName, 25)) +
    field("60", ascii(input.merchantCity, 15)) +
    field("62", field("05", txid)) +
    "6304";
  return body + crc16(body);
}
