import { test } from "node:test";
import assert from "node:assert/strict";
import { dashboardLocale } from "@/lib/i18n/dashboard-locale";

test("the cookie wins when it holds one of our languages", () => {
  assert.equal(dashboardLocale("pt-BR", "en-US"), "pt-BR");
  assert.equal(dashboardLocale("en", "pt-BR"), "en");
});

test("an unknown cookie value is ignored: Accept-Language decides, by q", () => {
  assert.equal(dashboardLocale("<script>", "pt-BR,pt;q=0.9,en;q=0.8"), "pt-BR");
  assert.equal(dashboardLocale("fr", "fr-FR,en;q=0.5,pt;q=0.4"), "en");
  assert.equal(dashboardLocale(undefined, "en;q=0.3, pt-PT;q=0.9"), "pt-BR");
  assert.equal(dashboardLocale(undefined, "es-MX,es;q=0.9"), "es");
});

test("nothing we speak reads English", () => {
  assert.equal(dashboardLocale(null, "de-DE,fr;q=0.8"), "en");
  assert.equal(dashboardLocale(undefined, undefined), "en");
  assert.equal(dashboardLocale("", ""), "en");
});
