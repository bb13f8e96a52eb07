// Identity documents and account identifiers of the rails (shared/notes/rails.md).

const digitsOnly = (s: string) => s.replace(/[.\-/\s]/g, "");

/** CPF: 11 digits, two mod-11 check digits; all-equal digits are invalid. */
export function isValidCpf(input: string): boolean {
  const d = digitsOnly(input);
  if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(9) === Number(d[9]) && check(10) === Number(d[10]);
}

/** CNPJ: 14 characters, the first 12 digits or (2026 alphanumeric CNPJ) letters, two mod-11 check digits. */
export function isValidCnpj(input: string): boolean {
  const d = digitsOnly(input).toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  const value = (c: string) => c.charCodeAt(0) - 48;
  const check = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += value(d[i]!) * weights[i]!;
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === Number(d[12]) && check(13) === Number(d[13]);
}

export function isCpfOrCnpjValid(input: string): boolean {
  return isValidCpf(input) || isValidCnpj(input);
}

/** RFC: people 4 letters + YYMMDD + 3-char homoclave (13); companies 3 letters + date + homoclave (12). */
export function isRfcShape(input: string): boolean {
  return /^[A-ZÑ&]{3,4}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[A-Z0-9]{3}$/.test(input.trim().toUpperCase());
}

/** CURP: 18 characters: 4 letters, YYMMDD, H/M, 2-letter state, 3 consonants, homoclave, check digit. */
export function isCurpShape(input: string): boolean {
  return /^[A-Z][AEIOUX][A-Z]{2}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[A-Z0-9]\d$/.test(input.trim().toUpperCase());
}

/** Colombian CC / CE / NIT numbers: 6-10 digits (NIT may carry its check digit after a dash). */
export function isColombianDocument(input: string): boolean {
  return /^\d{6,10}(-\d)?$/.test(input.trim());
}

/** CLABE check digit: weights 3,7,1 over the first 17 digits. */
export function clabeCheckDigit(first17: string): number {
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * w[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

export function isValidClabe(input: string): boolean {
  return /^\d{18}$/.test(input) && clabeCheckDigit(input.slice(0, 17)) === Number(input[17]);
}
