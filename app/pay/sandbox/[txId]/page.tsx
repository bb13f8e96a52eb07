// The sandbox provider's hosted payment page (the `paymentFormUrl` of sandbox payments): the
// rail's instructions as a buyer would see them (PIX code and QR, SPEI CLABE, OXXO barcode, a
// card form stand-in), and test-mode buttons to pay or fail.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import { buyerLocale } from "@/server/buyer-locale";
import { buyerPayment } from "@/lib/checkout/buyer-payment";
import { sandboxInstructions } from "@/lib/payments/sandbox-instructions";
import { barcodeDataUrl, qrDataUrl } from "@/lib/checkout/codes";
import { BuyerFrame, buttonClass, secondaryButtonClass } from "@/components/checkout/buyer-frame";
import { CopyButton } from "@/components/checkout/copy-button";
import { StatusBadge } from "@/components/checkout/status-badge";
import type { Messages } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sandbox payment", robots: { index: false, follow: false } };

function Copyable({ id, label, value, t, large }: { id: string; label: string; value: string; t: Messages; large?: boolean }) {
  return (
    <div>
      <dt id={`${id}-label`} className="text-sm font-medium text-slate-600">
        {label}
      </dt>
      <dd className="mt-1 flex items-center gap-3">
        <span id={id} aria-labelledby={`${id}-label`} className={`min-w-0 flex-1 break-all font-mono text-slate-900 ${large ? "text-xl font-semibold tracking-wider" : "text-base"}`}>
          {value}
        </span>
        <CopyButton value={value} label={t.copy} copiedLabel={t.copied} />
      </dd>
    </div>
  );
}

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

export default async function SandboxPaymentPage({ params }: { params: Promise<{ txId: string }> }) {
  const { txId } = await params;
  const tx = await buyerPayment(txId);
  if (!tx || tx.environment !== "sandbox") notFound();
  const { t, locale, formatTag } = await buyerLocale();
  const info = sandboxInstructions(tx);
  const amount = formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag);
  const nextUrl = tx.returnUrl ?? `/c/${tx.id}/result?locale=${locale}`;

  return (
    <BuyerFrame t={t} locale={locale} path={`/pay/sandbox/${tx.id}`} merchantName={tx.merchantName} sandbox>
      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 id="pay-title" className="text-base font-medium text-slate-700">
          {t.payWith[tx.method] ?? tx.railName}
        </h1>
        <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900" data-testid="amount">
          {amount}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {tx.railName} · {t.reference} <span className="font-mono">{tx.merchantOrderId ?? tx.id}</span>
        </p>
        <p className="mt-3">
          <span className="sr-only">{t.status}: </span>
          <StatusBadge status={tx.status} label={t.statusLabel[tx.status] ?? tx.status} />
        </p>
        {tx.status === "pending" ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="pay-before">
            {t.payBefore(formatDateTime(tx.expiresAt, formatTag, tx.country))}
          </p>
        ) : null}
      </section>

      {tx.status === "pending" ? (
        <section aria-labelledby="how-title" className="mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="how-title" className="sr-only">
            {t.payWith[tx.method] ?? tx.railName}
          </h2>
          {info.kind === "pix" ? (
            <>
              <p className="text-slate-800">{t.pixSteps}</p>
              <img src={await qrDataUrl(info.code)} alt={t.pixQr} width={208} height={208} className="mx-auto mt-4 h-52 w-52" />
              <dl className="mt-4">
                <Copyable id="pix-code" label={t.pixCode} value={info.code} t={t} />
              </dl>
            </>
          ) : info.kind === "spei" ? (
            <>
              <p className="text-slate-800">{t.speiSteps}</p>
              <dl className="mt-4 space-y-4">
                <Copyable id="clabe" label={t.clabe} value={info.clabe} t={t} large />
                <Copyable id="reference" label={t.reference} value={info.reference} t={t} />
                <div>
                  <dt className="text-sm font-medium text-slate-600">{t.bank}</dt>
                  <dd className="text-slate-900">{info.bank}</dd>
                </div>
                <div>
                  <dt className="text-sm font-medium text-slate-600">{t.amount}</dt>
                  <dd className="font-semibold text-slate-900">{amount}</dd>
                </div>
              </dl>
            </>
          ) : info.kind === "oxxo" ? (
            <>
              <p className="text-slate-800">{t.oxxoSteps}</p>
              <img src={barcodeDataUrl(info.reference)} alt={t.barcode(info.reference)} width={320} height={90} className="mx-auto mt-4 h-auto w-full max-w-xs bg-white" />
              <dl className="mt-4">
                <Copyable id="oxxo-reference" label={t.oxxoReference} value={info.reference} t={t} large />
              </dl>
            </>
          ) : info.kind === "boleto" ? (
            <>
              <p className="text-slate-800">{t.boletoSteps}</p>
              <dl className="mt-4">
                <Copyable id="boleto-line" label={t.boletoLine} value={info.line} t={t} />
              </dl>
            </>
          ) : info.kind === "card" ? (
            <form aria-labelledby="card-title" className="space-y-3">
              <h3 id="card-title" className="font-semibold text-slate-900">
                {t.cardTitle}
              </h3>
              <p className="text-sm text-slate-600">{t.cardStandIn}</p>
              <StandInField id="card-number" label={t.cardNumber} value="4242 4242 4242 4242" />
              <div className="grid grid-cols-2 gap-3">
                <StandInField id="card-expiry" label={t.cardExpiry} value="12/34" />
                <StandInField id="card-cvc" label={t.cardCvc} value="123" />
              </div>
            </form>
          ) : (
            <>
              <p className="text-slate-800">{t.transferSteps}</p>
              <dl className="mt-4 space-y-4">
                <Copyable id="reference" label={t.reference} value={info.reference} t={t} large />
                <div>
                  <dt className="text-sm font-medium text-slate-600">{t.bank}</dt>
                  <dd className="text-slate-900">{info.bank}</dd>
                </div>
              </dl>
            </>
          )}
        </section>
      ) : null}

      {tx.status === "pending" ? (
        <form method="post" action={`/pay/sandbox/${tx.id}/action?locale=${locale}`} className="mt-4 rounded-xl border-2 border-dashed border-amber-500 bg-amber-50 p-5">
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
        <a href={nextUrl} className={`${buttonClass} mt-4`}>
          {tx.returnUrl ? t.returnTo(tx.merchantName) : t.continueToResult}
        </a>
      )}
      {tx.status === "pending" ? (
        <a href={`/c/${tx.id}/result?locale=${locale}`} className={`${secondaryButtonClass} mt-3`}>
          {t.seeStatus}
        </a>
      ) : null}
    </BuyerFrame>
  );
}
