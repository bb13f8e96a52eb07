import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDateTime, formatMoney, parseAcceptLanguage, resolveLocale } from "./locale.ts";

test("Accept-Language is ordered by q and the first translated language wins", () => {
  assert.deepEqual(parseAcceptLanguage("fr-FR;q=0.9, pt-BR, es;q=0.8, *;q=0.1"), ["pt-BR", "fr-FR", "es"]);
  assert.deepEqual(resolveLocale(null, "fr-FR, es-MX;q=0.9, en;q=0.8"), { locale: "es", formatTag: "es-MX" });
  assert.deepEqual(resolveLocale(null, "pt;q=0.5, de"), { locale: "pt-BR", formatTag: "pt-BR" });
  assert.deepEqual(resolveLocale(null, "de-DE, fr"), { locale: "en", formatTag: "en-US" });
  assert.deepEqual(resolveLocale(null, null), { locale: "en", formatTag: "en-US" });
});

test("?locale= overrides the header; the buyer's region shapes numbers", () => {
  assert.deepEqual(resolveLocale("pt-BR", "es-MX"), { locale: "pt-BR", formatTag: "pt-BR" });
  assert.deepEqual(resolveLocale("es-CO", "en"), { locale: "es", formatTag: "es-CO" });
  assert.deepEqual(resolveLocale("es", "en"), { locale: "es", formatTag: "es-MX" });
  // An unknown or malformed override falls back to the header.
  assert.deepEqual(resolveLocale("xx-!!", "pt-BR"), { locale: "pt-BR", formatTag: "pt-BR" });
  assert.deepEqual(resolveLocale("de", "en-GB"), { locale: "en", formatTag: "en-GB" });
});

test("money is formatted per locale and currency", () => {
  const nbsp = (s: string) => s.replace(/\u00a0/g, " ");
  assert.equal(nbsp(formatMoney(1234.5, "BRL", "pt-BR")), "R$ 1.234,50");
  assert.equal(formatMoney(1234.5, "MXN", "es-MX"), "$1,234.50");
  assert.equal(formatMoney(1234.5, "USD", "en-US"), "$1,234.50");
  assert.equal(nbsp(formatMoney(1234, "CLP", "es-CL")), "$1.234");
});

test("dates are shown in the buyer's country's time, with the zone named", () => {
  const d = new Date("2026-11-23T05:31:00Z");
  assert.match(formatDateTime(d, "pt-BR", "BRA"), /02:31/);
  assert.match(formatDateTime(d, "en-US", null), /05:31.*UTC/);
});
