// Payment instructions a provider returned instead of a hosted page (e.g. a voucher reference):
// the service shows them on its own page, in the buyer's language.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import { buyerLocale } from "@/server/buyer-locale";
import { buyerPayment } from "@/lib/checkout/buyer-payment";
import { BuyerFrame, secondaryButtonClass } from "@/components/checkout/buyer-frame";
import { CopyButton } from "@/components/checkout/copy-button";
import { StatusBadge } from "@/components/checkout/status-badge";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment instructions", robots: { index: false, follow: false } };

export default async function InstructionsPage({ params }: { params: Promise<{ provider: string; txId: string }> }) {
  const { provider, txId } = await params;
  const tx = await buyerPayment(txId);
  if (!tx || tx.provider !== provider || !tx.instructions) notFound();
  const { t, locale, formatTag } = await buyerLocale();
  const entries = Object.entries(tx.instructions as Record<string, unknown>).filter(([k, v]) => k !== "amount" && k !== "currency" && (typeof v === "string" || typeof v === "number"));
  const amount = formatMoney(toMajor(tx.amountLocal, tx.currencyLocal), tx.currencyLocal, formatTag);
  const labels: Record<string, string> = { clabe: t.clabe, reference: t.reference, bank: t.bank, barcode: t.oxxoReference, pixCode: t.pixCode, line: t.boletoLine };
  return (
    <BuyerFrame t={t} locale={locale} path={`/pay/${provider}/${tx.id}`} merchantName={tx.merchantName} sandbox={tx.environment === "sandbox"}>
      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 id="pay-title" className="text-base font-medium text-slate-700">
          {t.payWith[tx.method] ?? tx.railName}
        </h1>
        <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{amount}</p>
        <p className="mt-3">
          <span className="sr-only">{t.status}: </span>
          <StatusBadge status={tx.status} label={t.statusLabel[tx.status] ?? tx.status} />
        </p>
        {tx.status === "pending" ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="pay-before">
            {t.payBefore(formatDateTime(tx.expiresAt, formatTag, tx.country))}
          </p>
        ) : null}
        <dl className="mt-5 space-y-4">
          {entries.map(([k, v], i) => (
            <div key={k}>
              <dt id={`f${i}`} className="text-sm font-medium capitalize text-slate-600">
                {labels[k] ?? k}
              </dt>
              <dd className="mt-1 flex items-center gap-3">
                <span aria-labelledby={`f${i}`} className="min-w-0 flex-1 break-all font-mono text-base text-slate-900">
                  {String(v)}
                </span>
                <CopyButton value={String(v)} label={t.copy} copiedLabel={t.copied} />
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <a href={tx.returnUrl ?? `/c/${tx.id}/result?locale=${locale}`} className={`${secondaryButtonClass} mt-4`}>
        {tx.returnUrl ? t.returnTo(tx.merchantName) : t.seeStatus}
      </a>
    </BuyerFrame>
  );
}
