import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { clabeCheckDigit, isColombianDocument, isCpfOrCnpjValid, isCurpShape, isRfcShape, isValidClabe, isValidCnpj, isValidCpf } from "@/lib/rails/document-rules";

// Reference implementations written from shared/notes/rails.md, independent of the code under test.
function mod11(values: number[], weights: number[]): number {
  const r = values.reduce((s, v, i) => s + v * weights[i]!, 0) % 11;
  return r < 2 ? 0 : 11 - r;
}
/** The two CNPJ check digits of 12 characters (digits or letters), each worth its ASCII code − 48. */
function cnpjCheckDigits(first12: string): string {
  const v = [...first12].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11(v, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...v, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}
function cpfCheckDigits(first9: string): string {
  const v = [...first9].map(Number);
  const d1 = mod11(v, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...v, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}
function clabeReference(first17: string): number {
  const w = [3, 7, 1];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * w[i % 3]!, 0);
  return (10 - (sum % 10)) % 10;
}
/** The same string with the digit at `i` changed (to another digit). */
const flipDigit = (s: string, i: number) => s.slice(0, i) + String((Number(s[i]) + 1) % 10) + s.slice(i + 1);

describe("CPF", () => {
  test("valid numbers, formatted or bare", () => {
    assert.equal(isValidCpf("529.982.247-25"), true);
    assert.equal(isValidCpf("52998224725"), true);
    assert.equal(isValidCpf("11144477735"), true);
    assert.equal(isValidCpf("111.444.777-35"), true);
  });

  test("the reference check digits agree with the examples", () => {
    assert.equal(cpfCheckDigits("529982247"), "25");
    assert.equal(cpfCheckDigits("111444777"), "35");
  });

  test("wrong check digits are invalid", () => {
    assert.equal(isValidCpf("529.982.247-24"), false);
    assert.equal(isValidCpf("529.982.247-15"), false);
    assert.equal(isValidCpf("11144477736"), false);
    for (let i = 0; i < 11; i++) assert.equal(isValidCpf(flipDigit("52998224725", i)), false, `digit ${i} changed`);
  });

  test("all-equal digits are invalid although the arithmetic passes", () => {
    for (let d = 0; d <= 9; d++) {
      const s = String(d).repeat(11);
      assert.equal(cpfCheckDigits(s.slice(0, 9)), s.slice(9), "the arithmetic passes");
      assert.equal(isValidCpf(s), false, s);
    }
    assert.equal(isValidCpf("111.111.111-11"), false);
  });

  test("wrong length or characters are invalid", () => {
    for (const bad of ["", "5299822472", "529982247250", "5299822472a", "529 982 247 2"]) assert.equal(isValidCpf(bad), false, bad);
  });

  test("generated CPFs with reference check digits are accepted", () => {
    for (const base of ["123456789", "987654321", "000000001", "246813579", "100000000"]) {
      assert.equal(isValidCpf(base + cpfCheckDigits(base)), true, base);
    }
  });
});

describe("CNPJ", () => {
  test("valid numeric CNPJ, formatted or bare", () => {
    assert.equal(cnpjCheckDigits("112223330001"), "81");
    assert.equal(isValidCnpj("11.222.333/0001-81"), true);
    assert.equal(isValidCnpj("11222333000181"), true);
  });

  test("wrong check digits are invalid", () => {
    assert.equal(isValidCnpj("11.222.333/0001-82"), false);
    assert.equal(isValidCnpj("11.222.333/0001-91"), false);
    for (let i = 0; i < 14; i++) assert.equal(isValidCnpj(flipDigit("11222333000181", i)), false, `digit ${i} changed`);
  });

  test("all-equal digits are invalid", () => {
    assert.equal(isValidCnpj("00000000000000"), false);
    assert.equal(isValidCnpj("11111111111111"), false);
  });

  test("alphanumeric CNPJ (2026): letters in the first 12 positions count as ASCII − 48", () => {
    // Built here from the rule; it is also the example the Receita Federal published.
    const base = "12ABC34501DE";
    const cnpj = base + cnpjCheckDigits(base);
    assert.equal(cnpj, "12ABC34501DE35");
    assert.equal(isValidCnpj(cnpj), true);
    assert.equal(isValidCnpj("12.ABC.345/01DE-35"), true);
    assert.equal(isValidCnpj("12.abc.345/01de-35"), true, "lower case is the same CNPJ");
    const other = "AB12CD34EF56";
    assert.equal(isValidCnpj(other + cnpjCheckDigits(other)), true);
  });

  test("an alphanumeric CNPJ with a wrong check digit is rejected", () => {
    assert.equal(isValidCnpj("12ABC34501DE36"), false);
    assert.equal(isValidCnpj("12ABC34501DE45"), false);
    assert.equal(isValidCnpj("12ABD34501DE35"), false, "a changed letter changes the check digits");
  });

  test("letters are not allowed in the check digits; wrong lengths are invalid", () => {
    assert.equal(isValidCnpj("12ABC34501DE3A"), false);
    assert.equal(isValidCnpj("1122233300018"), false);
    assert.equal(isValidCnpj("112223330001811"), false);
    assert.equal(isValidCnpj("11-222-333/0001-8!"), false);
  });

  test("isCpfOrCnpjValid accepts either", () => {
    assert.equal(isCpfOrCnpjValid("529.982.247-25"), true);
    assert.equal(isCpfOrCnpjValid("11.222.333/0001-81"), true);
    assert.equal(isCpfOrCnpjValid("12ABC34501DE35"), true);
    assert.equal(isCpfOrCnpjValid("529.982.247-26"), false);
    assert.equal(isCpfOrCnpjValid("12345"), false);
  });
});

describe("RFC and CURP shapes", () => {
  test("valid RFC: person (13) and company (12)", () => {
    assert.equal(isRfcShape("GODE561231GR8"), true);
    assert.equal(isRfcShape("ABC010101AB1"), true);
    assert.equal(isRfcShape("gode561231gr8"), true, "case-insensitive");
    assert.equal(isRfcShape(" GODE561231GR8 "), true, "surrounding spaces are ignored");
    assert.equal(isRfcShape("ÑAND010101AB1"), true);
    assert.equal(isRfcShape("A&C010101AB1"), true);
  });

  test("invalid RFC shapes", () => {
    for (const bad of [
      "GODE561331GR8", // month 13
      "GODE560031GR8", // month 00
      "GODE561232GR8", // day 32
      "GODE561200GR8", // day 00
      "GO1E561231GR8", // digit among the letters
      "GODE56123GR8", // short date
      "GODE561231GR", // short homoclave
      "GODE561231GR89", // long homoclave
      "AB010101AB1", // 2 letters
      "ABCDE010101AB1", // 5 letters
      "GODE-561231-GR8",
      "",
    ]) {
      assert.equal(isRfcShape(bad), false, bad);
    }
  });

  test("valid CURP", () => {
    assert.equal(isCurpShape("GODE561231HDFRRN09"), true);
    assert.equal(isCurpShape("GODE561231MDFRRN09"), true);
    assert.equal(isCurpShape("gode561231hdfrrn09"), true);
    assert.equal(isCurpShape("GODE561231HDFRRNA9"), true, "the homoclave may be a letter");
  });

  test("invalid CURP shapes", () => {
    for (const bad of [
      "GODE561231ZDFRRN09", // sex letter
      "GBDE561231HDFRRN09", // second letter must be a vowel (or X)
      "GODE561231HDFRAN09", // vowel among the 3 consonants
      "GODE561231HDFRRN0A", // check digit must be a digit
      "GODE561331HDFRRN09", // month 13
      "GODE561231HD1RRN09", // state must be letters
      "GODE561231HDFRRN0", // 17 characters
      "GODE561231HDFRRN091", // 19 characters
      "GODE561231GR8", // an RFC is not a CURP
    ]) {
      assert.equal(isCurpShape(bad), false, bad);
    }
    assert.equal(isRfcShape("GODE561231HDFRRN09"), false, "a CURP is not an RFC");
  });
});

describe("Colombian documents", () => {
  test("CC / CE numbers of 6-10 digits and NIT with a check digit", () => {
    for (const ok of ["123456", "1234567890", "52123456", "900123456-7", " 1020304050 "]) assert.equal(isColombianDocument(ok), true, ok);
  });

  test("too short, too long, letters or a bad NIT suffix are invalid", () => {
    for (const bad of ["12345", "12345678901", "12345A78", "900123456-", "900123456-78", "-1234567", ""]) assert.equal(isColombianDocument(bad), false, bad);
  });
});

describe("CLABE", () => {
  test("the well-known example 002010077777777771 is valid by the 3,7,1 weights", () => {
    assert.equal(clabeReference("00201007777777777"), 1);
    assert.equal(clabeCheckDigit("00201007777777777"), 1);
    assert.equal(isValidClabe("002010077777777771"), true);
    assert.equal(isValidClabe("032180000118359719"), true);
  });

  test("a CLABE built from any 17 digits with the computed check digit is valid", () => {
    for (const first17 of ["01218000118359719", "64618012345678901", "07258000000000000", "00000000000000000", "99999999999999999", "13579246801357924"]) {
      const check = clabeReference(first17);
      assert.equal(clabeCheckDigit(first17), check, first17);
      assert.equal(isValidClabe(first17 + check), true, first17);
    }
  });

  test("changing any one digit makes it invalid", () => {
    const clabe = "002010077777777771";
    for (let i = 0; i < 18; i++) assert.equal(isValidClabe(flipDigit(clabe, i)), false, `digit ${i} changed: ${flipDigit(clabe, i)}`);
  });

  test("wrong length or non-digits are invalid", () => {
    for (const bad of ["00201007777777777", "0020100777777777710", "00201007777777777A", "002 010 077777777771", ""]) assert.equal(isValidClabe(bad), false, bad);
  });
});
