// The payer's authorization page of a recurring PIX mandate (/pay/mandate/{token}): the terms
// (who, what for, how much, how often, from and until when) and, while the mandate waits for the
// payer, the code their bank app scans and its copy-and-paste text. Once answered it says how the
// mandate stands. Plain HTML, usable on a phone, in the buyer's language (es, pt-BR, en).
import { toMajor } from "@/lib/money/amount";
import { formatMoney } from "@/lib/i18n/locale";
import type { BuyerContext, BuyerPage } from "@/server/buyer-page";
import { maskedDocument, publicMandate } from "@/lib/mandates/public-mandate";
import { isoDayOf } from "@/lib/mandates/dates";
import { qrSvg } from "@/lib/qr/image";
import { BuyerFrame, Notice } from "@/components/checkout/buyer-frame";
import { CopyButton } from "@/components/checkout/copy-button";

const day = (d: Date, formatTag: string) => new Intl.DateTimeFormat(formatTag, { dateStyle: "long", timeZone: "UTC" }).format(d);

export async function mandatePage({ params, t, locale, formatTag }: BuyerContext): Promise<BuyerPage> {
  const token = params.token!;
  const path = `/pay/mandate/${token}`;
  const found = await publicMandate(token);
  const title = "Pix Automático";
  if (!found) {
    return { title, status: 404, body: (
      <BuyerFrame t={t} locale={locale} path={path}>
        <Notice title={t.mandateNotFoundTitle}>
          <p>{t.mandateNotFoundBody}</p>
        </Notice>
      </BuyerFrame>
    ) };
  }
  const { mandate: m, shopName, payload } = found;
  const pending = m.status === "pending_authorization";
  // The SVG markup is the qrcode package's rendering of our own payload, not user text.
  const svg = pending ? await qrSvg(payload) : null;
  const money = (minor: bigint) => formatMoney(toMajor(minor, m.currency), m.currency, formatTag);
  const amount = m.amount !== null ? money(m.amount) : t.mandateUpTo(money(m.maxAmount!));
  return { title, body: (
    <BuyerFrame t={t} locale={locale} path={path} merchantName={shopName ?? undefined} sandbox={m.environment === "sandbox"}>
      <section aria-labelledby="mandate-title" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 id="mandate-title" className="text-center text-2xl font-semibold text-slate-900">
          {t.mandateTitle[m.status] ?? m.status}
        </h1>
        <p className="mt-2 text-center text-3xl font-bold text-slate-900" data-testid="mandate-amount">
          {amount} <span className="text-base font-medium text-slate-700">{t.mandateEvery[m.period]}</span>
        </p>
        {svg ? (
          <>
            <div role="img" aria-label={t.pixQr} className="mx-auto mt-5 w-full max-w-[18rem] sm:max-w-[22rem] [&>svg]:h-auto [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: svg }} />
            <p className="mt-4 text-slate-700">{t.mandateBody}</p>
            <div className="mt-5">
              <p id="mandate-code-label" className="text-sm font-medium text-slate-700">
                {t.pixCode}
              </p>
              <div className="mt-1 flex items-start gap-2">
                <code aria-labelledby="mandate-code-label" className="min-w-0 flex-1 break-all rounded-lg bg-slate-100 p-3 text-xs text-slate-900" data-testid="mandate-payload">
                  {payload}
                </code>
                <CopyButton value={payload} label={t.copy} copiedLabel={t.copied} />
              </div>
            </div>
          </>
        ) : (
          <p className="mt-4 text-center text-slate-700">{m.status === "active" ? t.mandateActive : t.mandateEnded}</p>
        )}
        <h2 className="mt-6 text-base font-semibold text-slate-900">{t.mandateTerms}</h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-600">{t.mandateDescription}</dt>
          <dd className="break-words text-slate-900">{m.description}</dd>
          <dt className="text-slate-600">{t.mandateFirstDay}</dt>
          <dd className="text-slate-900">
            <time dateTime={isoDayOf(m.startDate)}>{day(m.startDate, formatTag)}</time>
          </dd>
          <dt className="text-slate-600">{t.mandateLastDay}</dt>
          <dd className="text-slate-900">{m.endDate ? <time dateTime={isoDayOf(m.endDate)}>{day(m.endDate, formatTag)}</time> : t.mandateUntilCancelled}</dd>
          <dt className="text-slate-600">{t.mandatePayer}</dt>
          <dd className="break-words text-slate-900">
            {m.customerName} · {maskedDocument(m.customerDocument)}
          </dd>
        </dl>
      </section>
    </BuyerFrame>
  ) };
}
