// The PIX rail mandate charges go out on, per environment (as QR orders': lib/qr/create-order.ts).
export const MANDATE_PIX = { sandbox: "sbx_pix", production: "1001" } as const;
export const MANDATE_CURRENCY = "BRL";
