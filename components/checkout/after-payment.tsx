// The way on after a payment ended (decisions.md, Hosted checkout: after a failure): "pay
// another way" when the session allows it (a plain form: it works without script), the way
// back to the store when the merchant gave one, and otherwise a sentence saying where to go.
import type { RetryOffer } from "@/lib/checkout/create-successor";
import type { Messages } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/i18n/locale";
import { buttonClass, secondaryButtonClass } from "@/components/checkout/buyer-frame";

export function AfterPayment({ t, locale, txId, status, retry, returnUrl, merchantName, resultUrl }: { t: Messages; locale: Locale; txId: string; status: string; retry: RetryOffer | null; returnUrl: string | null; merchantName: string; resultUrl?: string }) {
  const ended = status === "failed" || status === "expired";
  if (!ended && !returnUrl) {
    // Paid (or later): on to the result page, when this is not it.
    return resultUrl ? (
      <a href={resultUrl} className={`${buttonClass} mt-4 print:hidden`}>
        {t.continueToResult}
      </a>
    ) : null;
  }
  return (
    <div className="mt-6 space-y-3 print:hidden" data-testid="after-payment">
      {retry ? <p className="text-slate-700">{t.retryBody}</p> : null}
      {retry?.nextSessionId ? (
        <a href={`/checkout/${retry.nextSessionId}?locale=${locale}`} className={buttonClass}>
          {t.payAnotherWay}
        </a>
      ) : retry ? (
        <form method="post" action={`/c/${txId}/retry?locale=${locale}`}>
          <button type="submit" className={buttonClass}>
            {t.payAnotherWay}
          </button>
        </form>
      ) : null}
      {returnUrl ? (
        <a href={returnUrl} className={retry ? secondaryButtonClass : buttonClass}>
          {t.returnTo(merchantName)}
        </a>
      ) : ended && !retry ? (
        <p className="text-slate-700">{t.backToStoreBody}</p>
      ) : null}
    </div>
  );
}
