// Where the buyer lands after paying when the merchant gave no returnUrl: the payment's status,
// kept current while it is pending; after a failure or expiry, the way on ("pay another way",
// the store's returnUrl).
import { toMajor } from "@/lib/money/amount";
import { formatMoney } from "@/lib/i18n/locale";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";
import { buyerPayment, storeNotified } from "@/lib/checkout/buyer-payment";
import { railLabel } from "@/lib/i18n/rail-label";
import { retryOffer } from "@/lib/checkout/create-successor";
import { railOf } from "@/lib/checkout/instructions";
import { BuyerFrame, Notice } from "@/components/checkout/buyer-frame";
import { AfterPayment } from "@/components/checkout/after-payment";
import { StatusBadge } from "@/components/checkout/status-badge";
import { LiveStatus } from "@/components/checkout/live-status";
import { installmentWords } from "@/components/checkout/installments-field";
import { quoteOf } from "@/lib/installments/stored";

export async function resultPage({ params, t, locale, formatTag }: BuyerContext): Promise<BuyerPage> {
  const txId = params.txId!;
  const title = t.pageTitle.result;
  const tx = await buyerPayment(txId);
  const path = `/c/${txId}/result`;
  if (!tx) {
    return { title, status: 404, body: (
      <BuyerFrame t={t} locale={locale} path={path}>
        <Notice title={t.paymentNotFoundTitle}>
          <p>{t.paymentNotFoundBody}</p>
        </Notice>
      </BuyerFrame>
    ) };
  }
  const retry = await retryOffer(tx.id, tx.status);
  const plan = quoteOf(tx.installments);
  const body = tx.status === "completed" && (await storeNotified(tx)) ? t.completedNotified : (t.resultBody[tx.status] ?? "");
  return { title, body: (
    <BuyerFrame t={t} locale={locale} path={path} merchantName={tx.merchantName} sandbox={tx.environment === "sandbox"}>
      <section aria-labelledby="result-title" className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 id="result-title" className="text-2xl font-semibold text-slate-900">
          {t.resultTitle[tx.status] ?? tx.status}
        </h1>
        <p className="mt-3" aria-live="polite">
          <span className="sr-only">{t.status}: </span>
          <StatusBadge status={tx.status} label={t.statusLabel[tx.status] ?? tx.status} />
        </p>
        <LiveStatus txId={tx.id} status={tx.status} checkingLabel={t.checking} noScriptLabel={t.noScriptStatus} reload={{ href: `${path}?locale=${locale}`, label: t.checkAgain }} />
        <p className="mt-4 text-slate-700" data-testid="result-body">
          {body}
        </p>
        <dl className="mx-auto mt-6 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-left text-sm">
          <dt className="text-slate-600">{t.amount}</dt>
          <dd className="font-semibold text-slate-900">{formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag)}</dd>
          <dt className="text-slate-600">{t.paymentMethod}</dt>
          <dd className="text-slate-900">{railLabel(t, railOf(tx), tx.railName)}</dd>
          {plan ? (
            <>
              <dt className="text-slate-600">{t.installmentsPlan}</dt>
              <dd className="text-slate-900" data-testid="result-installments">
                {installmentWords(t, plan, tx.currencyLocal, tx.country, formatTag)}
              </dd>
            </>
          ) : null}
          <dt className="text-slate-600">{t.order}</dt>
          <dd className="break-all font-mono text-slate-900">{tx.merchantOrderId ?? tx.id}</dd>
        </dl>
        <AfterPayment t={t} locale={locale} txId={tx.id} status={tx.status} retry={retry} returnUrl={tx.returnUrl} merchantName={tx.merchantName} />
      </section>
    </BuyerFrame>
  ) };
}
