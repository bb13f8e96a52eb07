// How to pay a pending charge: the steps, the QR code or barcode, the values to copy, the
// rail's deadline, and for vouchers and boletos a way to keep them (print, PDF). Shared by the
// sandbox provider's page and a real provider's instructions page. The print stylesheet keeps
// this and the amount, and drops buttons and the page's chrome.
import { barcodeDataUrl, qrDataUrl } from "@/lib/checkout/codes";
import type { Instructions, InstructionField } from "@/lib/checkout/instructions";
import type { Messages } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/i18n/locale";
import { CopyButton } from "@/components/checkout/copy-button";
import { PrintButton } from "@/components/checkout/print-button";
import { secondaryButtonClass } from "@/components/checkout/buyer-frame";

/** A CLABE in its 3-3-11-1 groups (bank, plaza, account, check digit), on one line; the text itself stays the 18 digits. */
function Clabe({ value }: { value: string }) {
  const groups = [value.slice(0, 3), value.slice(3, 6), value.slice(6, 17), value.slice(17)];
  return (
    <>
      {groups.map((g, i) => (
        <span key={i} className={i < groups.length - 1 ? "mr-[0.35em]" : undefined}>
          {g}
        </span>
      ))}
    </>
  );
}

/** Groups separated by a space the line may wrap at; a group itself never breaks (a phone keeps "12345.67890" whole). */
function Groups({ groups }: { groups: string[] }) {
  return (
    <>
      {groups.map((g, i) => (
        <span key={i}>
          {i > 0 ? " " : null}
          <span className="inline-block whitespace-nowrap" data-testid="reading-group">
            {g}
          </span>
        </span>
      ))}
    </>
  );
}

function Field({ f, t }: { f: InstructionField; t: Messages }) {
  const id = `field-${f.key}`;
  return (
    <div>
      <dt id={`${id}-label`} className="text-sm font-medium text-slate-600">
        {f.label}
      </dt>
      <dd className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-2">
        <span
          id={f.clabe ? "clabe" : f.key === "reference" ? "reference" : id}
          aria-labelledby={`${id}-label`}
          data-testid={`field-${f.key}`}
          className={`font-mono text-slate-900 ${f.clabe ? "whitespace-nowrap" : f.groups ? "min-w-0 flex-1" : "min-w-0 flex-1 break-all"} ${f.large ? "text-xl font-semibold tracking-wide" : "text-base"}`}
        >
          {f.clabe ? <Clabe value={f.value} /> : f.groups ? <Groups groups={f.groups} /> : f.value}
        </span>
        {f.copy ? (
          <span className="print:hidden">
            <CopyButton value={f.value} label={t.copy} copiedLabel={t.copied} />
          </span>
        ) : null}
      </dd>
    </div>
  );
}

export async function InstructionsView({ ins, t, locale, txId, deadline, title }: { ins: Instructions; t: Messages; locale: Locale; txId: string; deadline: string; title: string }) {
  const barcodeAlt = ins.kind === "boleto" ? t.boletoLine : t.barcode(ins.fields[0]?.value ?? "");
  return (
    <section aria-labelledby="how-title" className="mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm print:border-0 print:p-0 print:shadow-none" data-testid="instructions">
      <h2 id="how-title" className="sr-only">
        {title}
      </h2>
      <p className="text-slate-800">{ins.steps}</p>
      {ins.qr ? <img src={await qrDataUrl(ins.qr)} alt={t.pixQr} width={208} height={208} className="mx-auto mt-4 h-52 w-52" /> : null}
      {ins.barcode ? <img src={await barcodeDataUrl(ins.barcode)} alt={barcodeAlt} width={320} height={90} className="mx-auto mt-4 h-auto w-full max-w-xs bg-white" /> : null}
      <dl className="mt-4 space-y-4">
        {ins.fields.map((f) => (
          <Field key={f.key} f={f} t={t} />
        ))}
        <div>
          <dt className="text-sm font-medium text-slate-600">{ins.kind === "boleto" ? t.dueDate : t.payBeforeLabel}</dt>
          <dd className="font-semibold text-slate-900" data-testid="deadline">
            {deadline}
          </dd>
        </div>
      </dl>
      {ins.printable ? (
        <div className="mt-5 grid gap-3 sm:grid-cols-2 print:hidden">
          <PrintButton label={t.printInstructions} className={secondaryButtonClass} />
          {/* No `download` attribute: the PDF downloads by its Content-Disposition, and a payment with nothing left to print answers its result page, which the browser then opens rather than saves. */}
          <a href={`/c/${txId}/instructions.pdf?locale=${locale}`} className={secondaryButtonClass}>
            {t.downloadPdf}
          </a>
        </div>
      ) : null}
    </section>
  );
}
