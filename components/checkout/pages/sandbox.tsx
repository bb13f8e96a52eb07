// The sandbox provider's hosted payment page (the `paymentFormUrl` of sandbox payments): the
// rail's instructions as a buyer would see them (PIX code and QR, SPEI CLABE, OXXO barcode,
// boleto, a card form stand-in) with the rail's deadline, and test-mode buttons to pay or fail.
// While pending it follows the payment and moves to the result page on its own (decisions.md,
// Hosted checkout: after a failure).
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import { railLabel } from "@/lib/i18n/rail-label";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";
import { paymentNotFound } from "@/components/checkout/pages/not-found";
import { buyerPayment } from "@/lib/checkout/buyer-payment";
import { retryOffer } from "@/lib/checkout/create-successor";
import { railOf, sandboxPaymentInstructions } from "@/lib/checkout/instructions";
import { BuyerFrame, secondaryButtonClass } from "@/components/checkout/buyer-frame";
import { PaymentSummary } from "@/components/checkout/payment-summary";
import { InstructionsView } from "@/components/checkout/instructions-view";
import { AfterPayment } from "@/components/checkout/after-payment";


/** A field of the card form stand-in: filled with test data, read-only. */
function StandInField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} readOnly value={value} autoComplete="off" className="mt-1 block min-h-11 w-full rounded-lg border border-slate-400 bg-slate-50 px-3 font-mono text-slate-900" />
    </div>
  );
}

export async function sandboxPage(ctx: BuyerContext): Promise<BuyerPage> {
  const { params, t, locale, formatTag } = ctx;
  const tx = await buyerPayment(params.txId!);
  if (!tx || tx.environment !== "sandbox") return paymentNotFound(ctx, `/pay/sandbox/${params.txId}`);
  const ins = sandboxPaymentInstructions(tx, t);
  const amount = formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag);
  const resultUrl = `/c/${tx.id}/result?locale=${locale}`;
  const name = railLabel(t, railOf(tx), tx.railName);
  const title = t.payWith[tx.method] ?? name;
  const deadline = formatDateTime(tx.expiresAt, formatTag, tx.country);
  const retry = tx.status === "pending" ? null : await retryOffer(tx.id, tx.status);

  return { title: t.pageTitle.payment, body: (
    <BuyerFrame t={t} locale={locale} path={`/pay/sandbox/${tx.id}`} merchantName={tx.merchantName} sandbox>
      <PaymentSummary t={t} title={title} amount={amount} railName={name} order={tx.merchantOrderId ?? tx.id} txId={tx.id} status={tx.status} deadline={deadline} resultUrl={resultUrl} />

      {tx.status === "pending" && ins.kind === "card" ? (
        <section aria-labelledby="card-title" className="mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <form aria-labelledby="card-title" className="space-y-3">
            <h2 id="card-title" className="font-semibold text-slate-900">
              {t.cardTitle}
            </h2>
            <p className="text-sm text-slate-600">{t.cardStandIn}</p>
            <StandInField id="card-number" label={t.cardNumber} value="4242 4242 4242 4242" />
            <div className="grid grid-cols-2 gap-3">
              <StandInField id="card-expiry" label={t.cardExpiry} value="12/34" />
              <StandInField id="card-cvc" label={t.cardCvc} value="123" />
            </div>
          </form>
        </section>
      ) : tx.status === "pending" ? (
        <InstructionsView ins={ins} t={t} locale={locale} txId={tx.id} deadline={deadline} title={title} />
      ) : null}

      {tx.status === "pending" ? (
        <form method="post" action={`/pay/sandbox/${tx.id}/action?locale=${locale}`} className="mt-4 rounded-xl border-2 border-dashed border-amber-500 bg-amber-50 p-5 print:hidden">
          <fieldset>
            <legend className="font-semibold text-amber-950">{t.testControls}</legend>
            <p className="text-sm text-amber-950">{t.testControlsHelp}</p>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <button name="action" value="paid" className="inline-flex min-h-11 items-center justify-center rounded-lg bg-emerald-800 px-4 py-2 font-semibold text-white hover:bg-emerald-900 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-emerald-400">
                {t.simulatePaid}
              </button>
              <button name="action" value="failed" className="inline-flex min-h-11 items-center justify-center rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white hover:bg-slate-900 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-slate-400">
                {t.simulateFailed}
              </button>
            </div>
          </fieldset>
        </form>
      ) : (
        <AfterPayment t={t} locale={locale} txId={tx.id} status={tx.status} retry={retry} returnUrl={tx.returnUrl} merchantName={tx.merchantName} resultUrl={resultUrl} />
      )}
      {tx.status === "pending" ? (
        <a href={resultUrl} className={`${secondaryButtonClass} mt-3 print:hidden`}>
          {t.seeStatus}
        </a>
      ) : null}
    </BuyerFrame>
  ) };
}
