// A provider page for a payment that is not there (or not this provider's): a 404 in the buyer's
// language, in the buyer frame.
import { BuyerFrame, Notice } from "@/components/checkout/buyer-frame";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";

export function paymentNotFound({ t, locale }: BuyerContext, path: string): BuyerPage {
  return {
    title: t.paymentNotFoundTitle,
    status: 404,
    body: (
      <BuyerFrame t={t} locale={locale} path={path}>
        <Notice title={t.paymentNotFoundTitle}>
          <p>{t.paymentNotFoundBody}</p>
        </Notice>
      </BuyerFrame>
    ),
  };
}
