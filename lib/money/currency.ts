// ISO 4217 minor-unit exponents of the currencies the service handles.
export const CURRENCY_EXPONENTS = { USD: 2, BRL: 2, MXN: 2, COP: 2, CLP: 0, PEN: 2, ARS: 2, EUR: 2 } as const;
export type Currency = keyof typeof CURRENCY_EXPONENTS;

export function isCurrency(code: string): code is Currency {
  return Object.hasOwn(CURRENCY_EXPONENTS, code);
}

export function exponent(currency: string): number {
  if (!isCurrency(currency)) throw new Error(`unknown currency ${currency}`);
  return CURRENCY_EXPONENTS[currency];
}
