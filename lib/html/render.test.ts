// The buyer pages' renderer against React's own (react-dom/server): the same document for the
// buyer components, compared as the browser reads it (attribute names are case-insensitive and
// unordered, `<input/>` is `<input>`, React's `<!-- -->` text separators are nothing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { renderToHtml } from "@/lib/html/render";
import { messages } from "@/lib/i18n/messages";
import { BuyerFrame, Notice } from "@/components/checkout/buyer-frame";
import { DocumentField } from "@/components/checkout/document-field";
import { CopyButton } from "@/components/checkout/copy-button";
import { PrintButton } from "@/components/checkout/print-button";
import { MethodGuard } from "@/components/checkout/method-guard";
import { LiveStatus } from "@/components/checkout/live-status";
import { QrLive } from "@/components/checkout/qr-live";
import { RailIcon } from "@/components/checkout/rail-icon";
import { StatusBadge } from "@/components/checkout/status-badge";
import { PaymentSummary } from "@/components/checkout/payment-summary";

/** Each tag's attributes lower-cased and sorted; void tags without their slash. */
const normal = (html: string) =>
  html.replace(/<(\w+)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g, (_, tag: string, attrs: string) => {
    const list = [...attrs.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)].map((m) => `${m[1]!.toLowerCase()}="${m[2] ?? ""}"`).sort();
    return `<${tag}${list.map((a) => ` ${a}`).join("")}>`;
  });
const react = (el: Parameters<typeof renderToStaticMarkup>[0]) => normal(renderToStaticMarkup(el).replace(/<!-- -->/g, ""));

test("renders the buyer components as React does", async () => {
  const t = messages("pt-BR");
  const labels = { label: t.documentLabel, required: t.required, help: t.documentHelp };
  const methods = [
    { id: "pix", rule: "cpf_cnpj" as const, name: "PIX <&> \"x\"", hint: t.documentFormat.cpf_cnpj! },
    { id: "oxxo", rule: "any" as const, name: "OXXO", hint: t.documentFormat["any:MX"]! },
  ];
  const trees = [
    h(BuyerFrame, { t, locale: "pt-BR", path: "/checkout/abc", merchantName: "Loja & Cia", sandbox: true, children: h(Notice, { title: "T", children: h("p", null, "a ", 1, " b") }) }),
    h(BuyerFrame, { t, locale: "en", path: "/x", children: null }),
    h("form", { method: "post", noValidate: false }, h(DocumentField, { methods, labels, error: "bad", value: "123", initialMethod: "pix" }), h(DocumentField, { methods, labels })),
    h(CopyButton, { value: "0001 \"2\"", label: t.copy, copiedLabel: t.copied }),
    h(PrintButton, { label: "Print", className: "a b" }),
    h(MethodGuard, { message: "Choose", initiallyShown: true }),
    h(MethodGuard, { message: "Choose", initiallyShown: false }),
    h(LiveStatus, { txId: "tx_1", status: "pending", checkingLabel: "…", noScriptLabel: "reload", goTo: "/c/tx_1/result?locale=en" }),
    h(LiveStatus, { txId: "tx_1", status: "pending", checkingLabel: "…", noScriptLabel: "reload", reload: { href: "/c/tx_1/result?locale=en", label: "Again" } }),
    h(QrLive, { status: "pending", live: true, statusUrl: "/qr/x/status", remainingMs: 65_000, expiresInLabel: "Expires in", checkingLabel: "c", lateLabel: "l" }),
    h(RailIcon, { icon: "pix", t, className: "h-10" }),
    h(StatusBadge, { status: "failed", label: "Falhou" }),
    h(PaymentSummary, { t, title: "Pague com PIX", amount: "R$ 5,00", railName: "PIX", order: "o-1", txId: "tx_1", status: "pending", deadline: "amanhã", resultUrl: "/c/tx_1/result" }),
    h("input", { type: "radio", defaultChecked: true, required: true, autoFocus: false, readOnly: true, value: "v", spellCheck: false, "aria-invalid": true }),
    h("div", { dangerouslySetInnerHTML: { __html: "<svg></svg>" } }),
  ];
  for (const tree of trees) assert.equal(normal(await renderToHtml(tree)), react(tree));
});

test("awaits async components", async () => {
  const Async = async ({ n }: { n: number }) => h("b", null, String(n));
  assert.equal(await renderToHtml(h("p", null, h(Async, { n: 2 }), [h("i", { key: "k" }, "x")])), "<p><b>2</b><i>x</i></p>");
  // What follows an async component waits for it, at every depth.
  assert.equal(await renderToHtml(h("div", null, "a", h("p", null, h(Async, { n: 1 }), "b"), [h(Async, { key: "k", n: 3 }), "c"], "d")), "<div>a<p><b>1</b>b</p><b>3</b>cd</div>");
});
