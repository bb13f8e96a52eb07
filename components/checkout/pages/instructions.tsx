// Payment instructions a provider returned instead of a hosted page (e.g. a voucher reference):
// the service shows them on its own page, in the buyer's language, with the rail's deadline and
// a copy to keep. While pending the page follows the payment and moves to the result page on its
// own when it is paid, failed or expired.
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import { railLabel } from "@/lib/i18n/rail-label";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";
import { paymentNotFound } from "@/components/checkout/pages/not-found";
import { buyerPayment } from "@/lib/checkout/buyer-payment";
import { retryOffer } from "@/lib/checkout/create-successor";
import { providerPaymentInstructions, railOf } from "@/lib/checkout/instructions";
import { BuyerFrame, secondaryButtonClass } from "@/components/checkout/buyer-frame";
import { PaymentSummary } from "@/components/checkout/payment-summary";
import { InstructionsView } from "@/components/checkout/instructions-view";
import { AfterPayment } from "@/components/checkout/after-payment";

export async function instructionsPage(ctx: BuyerContext): Promise<BuyerPage> {
  const { params, t, locale, formatTag } = ctx;
  const provider = params.provider!;
  const tx = await buyerPayment(params.txId!);
  if (!tx || tx.provider !== provider || !tx.instructions) return paymentNotFound(ctx, `/pay/${provider}/${params.txId}`);
  const amount = formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag);
  const name = railLabel(t, railOf(tx), tx.railName);
  const title = t.payWith[tx.method] ?? name;
  const deadline = formatDateTime(tx.expiresAt, formatTag, tx.country);
  const resultUrl = `/c/${tx.id}/result?locale=${locale}`;
  const retry = tx.status === "pending" ? null : await retryOffer(tx.id, tx.status);
  return { title: t.pageTitle.instructions, body: (
    <BuyerFrame t={t} locale={locale} path={`/pay/${provider}/${tx.id}`} merchantName={tx.merchantName} sandbox={tx.environment === "sandbox"}>
      <PaymentSummary t={t} title={title} amount={amount} railName={name} order={tx.merchantOrderId ?? tx.id} txId={tx.id} status={tx.status} deadline={deadline} resultUrl={resultUrl} />
      {tx.status === "pending" ? <InstructionsView ins={providerPaymentInstructions(tx, t)} t={t} locale={locale} txId={tx.id} deadline={deadline} title={title} /> : null}
      {tx.status === "pending" ? (
        <a href={resultUrl} className={`${secondaryButtonClass} mt-4 print:hidden`}>
          {t.seeStatus}
        </a>
      ) : (
        <AfterPayment t={t} locale={locale} txId={tx.id} status={tx.status} retry={retry} returnUrl={tx.returnUrl} merchantName={tx.merchantName} resultUrl={resultUrl} />
      )}
    </BuyerFrame>
  ) };
}
