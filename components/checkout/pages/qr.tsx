// The counter page of a QR order (/qr/{token}): a screen facing the payer, on a phone or a tablet
// at the till. It shows the code, the amount, the copy-and-paste code and a countdown to the
// deadline, and follows the order live (components/checkout/qr-live.tsx polls /qr/{token}/status;
// the server renders the page again when it changes or the countdown ends): paid, expired or
// cancelled replace the code. In the buyer's language (es, pt-BR, en).
import { toMajor } from "@/lib/money/amount";
import { formatDateTime, formatMoney } from "@/lib/i18n/locale";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";
import { publicQrOrder } from "@/lib/qr/orders";
import { qrSvg } from "@/lib/qr/image";
import { BuyerFrame, Notice } from "@/components/checkout/buyer-frame";
import { StatusBadge } from "@/components/checkout/status-badge";
import { QrLive } from "@/components/checkout/qr-live";
import { CopyButton } from "@/components/checkout/copy-button";

export async function qrPage({ params, t, locale, formatTag }: BuyerContext): Promise<BuyerPage> {
  const token = params.token!;
  const title = "PIX";
  const o = await publicQrOrder(token);
  const path = `/qr/${token}`;
  if (!o) {
    return { title, body: (
      <BuyerFrame t={t} locale={locale} path={path}>
        <Notice title={t.qrNotFoundTitle}>
          <p>{t.qrNotFoundBody}</p>
        </Notice>
      </BuyerFrame>
    ) };
  }
  const pending = o.status === "pending";
  // The SVG markup is the qrcode package's rendering of our own payload, not user text.
  const svg = pending ? await qrSvg(o.qrPayload) : null;
  return { title, body: (
    <BuyerFrame t={t} locale={locale} path={path} merchantName={o.establishment.name} sandbox={o.environment === "sandbox"}>
      <section aria-labelledby="qr-title" className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 id="qr-title" className="text-2xl font-semibold text-slate-900">
          {t.qrTitle[o.status] ?? o.status}
        </h1>
        <p className="mt-2 text-3xl font-bold text-slate-900" data-testid="qr-amount">
          {formatMoney(toMajor(o.amountLocal, o.currencyLocal), o.currencyLocal, formatTag)}
        </p>
        <p className="mt-3" aria-live="polite">
          <span className="sr-only">{t.status}: </span>
          <StatusBadge status={o.status} label={t.qrStatusLabel[o.status] ?? o.status} />
        </p>
        <QrLive status={o.status} live={o.live} statusUrl={`/qr/${token}/status`} remainingMs={o.remainingMs} expiresInLabel={t.qrExpiresIn} checkingLabel={t.checking} lateLabel={t.qrLate} />
        {svg ? (
          <>
            <div role="img" aria-label={t.pixQr} className="mx-auto mt-5 w-full max-w-[18rem] sm:max-w-[22rem] [&>svg]:h-auto [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: svg }} />
            <p className="mt-4 text-slate-700">{t.qrBody.pending}</p>
            <p className="mt-2 text-sm font-medium text-slate-900">{t.payBefore(formatDateTime(o.expiresAt, formatTag, "BRA"))}</p>
            <div className="mt-5 text-left">
              <p id="qr-code-label" className="text-sm font-medium text-slate-700">
                {t.pixCode}
              </p>
              <div className="mt-1 flex items-start gap-2">
                <code aria-labelledby="qr-code-label" className="min-w-0 flex-1 break-all rounded-lg bg-slate-100 p-3 text-xs text-slate-900" data-testid="qr-payload">
                  {o.qrPayload}
                </code>
                <CopyButton value={o.qrPayload} label={t.copy} copiedLabel={t.copied} />
              </div>
            </div>
          </>
        ) : (
          <p className="mt-4 text-slate-700">{t.qrBody[o.status] ?? ""}</p>
        )}
        <dl className="mx-auto mt-6 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-left text-sm">
          <dt className="text-slate-600">{t.reference}</dt>
          <dd className="break-all font-mono text-slate-900">{o.merchantOrderId}</dd>
        </dl>
      </section>
    </BuyerFrame>
  ) };
}
