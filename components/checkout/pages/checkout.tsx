// The buyer's method selector (/checkout/<token>): what they pay, to whom, and a plain HTML form
// of the methods that accept the amount. Works before (and without) any script; errors from a
// rejected pick come back as query parameters and are shown next to their field.
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import { loadCheckoutPage } from "@/lib/checkout/checkout-page";
import { railLabel } from "@/lib/i18n/rail-label";
import { documentHint } from "@/lib/checkout/document-hint";
import { BuyerFrame, Notice, buttonClass, secondaryButtonClass } from "@/components/checkout/buyer-frame";
import { RailIcon } from "@/components/checkout/rail-icon";
import { DocumentField } from "@/components/checkout/document-field";
import { MethodGuard } from "@/components/checkout/method-guard";
import { InstallmentsField } from "@/components/checkout/installments-field";
import { TYPED_DOCUMENT_COOKIE, decodeDocument } from "@/server/checkout-form";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";

export async function checkoutPage({ params, url, cookie, t, locale, formatTag }: BuyerContext): Promise<BuyerPage> {
  const token = params.token!;
  const one = (name: string) => url.searchParams.get(name) ?? undefined;
  const page = await loadCheckoutPage(token);
  const path = `/checkout/${token}`;
  const title = t.pageTitle.checkout;

  // After "pay another way", the first link leads on to the session the buyer moved to.
  if (page.kind === "moved") return { redirect: `/checkout/${page.nextSessionId}?locale=${locale}` };
  if (page.kind === "unknown") {
    return { title, body: (
      <BuyerFrame t={t} locale={locale} path={path}>
        <Notice title={t.unknownTitle}>
          <p>{t.unknownBody}</p>
        </Notice>
      </BuyerFrame>
    ) };
  }
  if (page.kind === "expired") {
    return { title, body: (
      <BuyerFrame t={t} locale={locale} path={path} merchantName={page.merchantName} sandbox={page.sandbox}>
        <Notice title={t.expiredTitle}>
          <p>{t.expiredBody(page.merchantName)}</p>
        </Notice>
      </BuyerFrame>
    ) };
  }
  if (page.kind === "used") {
    const ended = page.txStatus === "failed" || page.txStatus === "expired";
    // Paid (or, later, refunded or disputed): the link says so, never "continue".
    const settled = page.txStatus !== null && page.txStatus !== "pending" && !ended;
    return { title, body: (
      <BuyerFrame t={t} locale={locale} path={path} merchantName={page.merchantName} sandbox={page.sandbox}>
        <Notice title={ended || settled ? (t.resultTitle[page.txStatus!] ?? t.usedTitle) : t.usedTitle}>
          <p data-testid="used-body">{page.txStatus === "completed" ? t.paidLinkBody : ended || settled ? t.resultBody[page.txStatus!] : t.usedBody}</p>
          {page.txId ? (
            <div className="space-y-3">
              {page.canRetry ? (
                <>
                  <p>{t.retryBody}</p>
                  <form method="post" action={`/c/${page.txId}/retry?locale=${locale}`}>
                    <button type="submit" className={buttonClass}>
                      {t.payAnotherWay}
                    </button>
                  </form>
                </>
              ) : null}
              {page.txStatus === "pending" ? (
                <a className={buttonClass} href={`/c/${page.txId}?locale=${locale}`}>
                  {t.goToPayment}
                </a>
              ) : null}
              {(ended || settled) && page.returnUrl ? (
                <a className={page.canRetry ? secondaryButtonClass : buttonClass} href={page.returnUrl}>
                  {t.returnTo(page.merchantName)}
                </a>
              ) : null}
              <a className={page.txStatus === "pending" || page.canRetry || ((ended || settled) && page.returnUrl) ? secondaryButtonClass : buttonClass} href={`/c/${page.txId}/result?locale=${locale}`}>
                {t.seeStatus}
              </a>
              {ended && !page.canRetry && !page.returnUrl ? <p>{t.backToStoreBody}</p> : null}
            </div>
          ) : null}
        </Notice>
      </BuyerFrame>
    ) };
  }

  const { session: s, methods } = page;
  const error = one("error");
  const errorField = one("field");
  const picked = one("method") ?? (methods.length === 1 ? methods[0]!.rail.paymentMethodId : undefined);
  // The headline is what the merchant asked (decisions.md, Money): in its presentment currency,
  // or, asked in USD with a country whose methods share one currency, in that currency with the
  // USD beside it. The USD a presentment amount credits the merchant (less the FX markup) is the
  // merchant's business, never shown to the buyer.
  const usd = formatMoney(toMajor(s.amountUsd, "USD"), "USD", formatTag);
  const localCurrencies = new Set(methods.map((m) => m.rail.currency));
  const asked = s.inputCurrency && s.inputAmount !== null ? formatMoney(toMajor(s.inputAmount, s.inputCurrency), s.inputCurrency, formatTag) : null;
  const local = !asked && s.country && localCurrencies.size === 1 && methods[0]!.localMinor !== null ? formatMoney(toMajor(methods[0]!.localMinor, methods[0]!.rail.currency), methods[0]!.rail.currency, formatTag) : null;
  const headline = asked ?? local ?? usd;
  const needsDocument = !s.documentId;
  const pickedRail = methods.find((m) => m.rail.paymentMethodId === picked)?.rail;
  const documentError =
    errorField === "documentId" && error
      ? error === "document_missing"
        ? t.documentMissing
        : error === "document_invalid" || error === "missing_required_fields"
          ? t.documentInvalid(documentHint(t, pickedRail))
          : (t.errors[error] ?? t.errors.generic)
      : null;
  const methodMissing = error === "choose_method";
  const formError = error && !documentError && !methodMissing ? (t.errors[error] ?? t.errors.generic) : null;
  // The document comes back after a rejected pick, and after "pay another way" (the one typed for the failed payment).
  const typedRaw = error || s.previousSessionId ? cookie(TYPED_DOCUMENT_COOKIE) : undefined;
  const typed = typedRaw ? decodeDocument(typedRaw) : undefined;
  // Everything the body below is drawn from (the rails are the catalog's, fixed in a process).
  const memoKey = JSON.stringify(
    [s, page.merchantName, page.sandbox, methods.map((m) => [m.rail.paymentMethodId, m.localMinor]), page.installments, locale, formatTag, url.search, typedRaw ?? null],
    (_, v) => (typeof v === "bigint" ? v.toString() : v),
  );

  return { title, memoKey, body: (
    <BuyerFrame t={t} locale={locale} path={path} merchantName={page.merchantName} sandbox={page.sandbox}>
      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 id="pay-title" className="text-base font-medium text-slate-700">
          {t.payTo(page.merchantName)}
        </h1>
        <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900" data-testid="amount">
          {headline}
        </p>
        {local && local !== usd ? <p className="mt-1 text-sm text-slate-600">{t.approx(usd)}</p> : null}
        {s.merchantOrderId ? <p className="mt-1 text-sm text-slate-600">{t.orderRef(s.merchantOrderId)}</p> : null}
      </section>

      <section aria-labelledby="details-title" className="mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="details-title" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          {t.yourDetails}
        </h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">{t.name}</dt>
          <dd className="break-words text-slate-900">
            {s.firstName} {s.lastName}
          </dd>
          <dt className="text-slate-600">{t.email}</dt>
          <dd className="break-all text-slate-900">{s.email}</dd>
          <dt className="text-slate-600">{t.phone}</dt>
          <dd className="text-slate-900">{s.phone}</dd>
        </dl>
      </section>

      {methods.length === 0 ? (
        <p className="mt-4 rounded-xl border border-slate-200 bg-white p-5 text-slate-800">{t.noMethods}</p>
      ) : (
        <form method="post" action={`/checkout/${s.id}/select?locale=${locale}`} className="mt-4" noValidate={false}>
          {formError ? (
            <p role="alert" id="form-error" className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-900">
              {formError}
            </p>
          ) : null}
          <fieldset id="paymentMethodId" aria-describedby={formError ? "form-error" : "method-error"}>
            <legend className="mb-3 text-lg font-semibold text-slate-900">{t.chooseMethod}</legend>
            <MethodGuard message={t.errors.choose_method!} initiallyShown={methodMissing} />
            <div className="grid gap-3 sm:grid-cols-2">
              {methods.map((m, i) => {
                const id = `method-${m.rail.paymentMethodId}`;
                return (
                  <div key={m.rail.paymentMethodId}>
                    <input type="radio" id={id} name="paymentMethodId" value={m.rail.paymentMethodId} defaultChecked={picked === m.rail.paymentMethodId} autoFocus={methodMissing && i === 0} required className="peer sr-only" />
                    <label
                      htmlFor={id}
                      className="flex min-h-16 cursor-pointer items-center gap-3 rounded-xl border-2 border-slate-200 bg-white p-3 hover:border-slate-400 peer-checked:border-blue-700 peer-checked:bg-blue-50 peer-focus-visible:outline-4 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-400"
                    >
                      <RailIcon icon={m.rail.icon} t={t} className="h-10 w-16 shrink-0" />
                      <span className="min-w-0 flex-1">
                        <span className="block font-semibold text-slate-900">{railLabel(t, m.rail, m.rail.name)}</span>
                        <span className="block text-sm text-slate-600">{t.methodHint[m.rail.method] ?? ""}</span>
                      </span>
                      {m.localMinor !== null ? <span className="shrink-0 text-sm font-semibold text-slate-900">{formatMoney(toMajor(m.localMinor, m.rail.currency), m.rail.currency, formatTag)}</span> : null}
                    </label>
                  </div>
                );
              })}
            </div>
          </fieldset>

          {methods.map((m) =>
            page.installments[m.rail.paymentMethodId] && m.localMinor !== null ? (
              <InstallmentsField key={m.rail.paymentMethodId} t={t} formatTag={formatTag} paymentMethodId={m.rail.paymentMethodId} methodName={railLabel(t, m.rail, m.rail.name)} currency={m.rail.currency} country={m.rail.countryIso3} price={m.localMinor} options={page.installments[m.rail.paymentMethodId]!} />
            ) : null,
          )}

          {needsDocument ? (
            <DocumentField
              methods={methods.map((m) => ({ id: m.rail.paymentMethodId, rule: m.rail.documentRule, name: railLabel(t, m.rail, m.rail.name), hint: documentHint(t, m.rail) }))}
              initialMethod={picked}
              labels={{ label: t.documentLabel, required: t.required, help: t.documentHelp }}
              error={documentError}
              value={typed}
            />
          ) : null}

          <button type="submit" className={`${buttonClass} mt-6`}>
            {t.continue}
          </button>
          <p className="mt-3 text-center text-sm text-slate-600">{t.expires(formatDateTime(s.expiresAt, formatTag, s.country))}</p>
        </form>
      )}
    </BuyerFrame>
  ) };
}
