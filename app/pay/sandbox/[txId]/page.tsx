// The sandbox provider's hosted payment page (the `paymentFormUrl` of sandbox payments): the
// rail's instructions as a buyer would see them, and test-mode buttons to pay or fail.
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";
import { sandboxInstructions } from "@/lib/payments/sandbox-instructions";

export const dynamic = "force-dynamic";

function formatMoney(minor: bigint, currency: string) {
  return new Intl.NumberFormat("en", { style: "currency", currency }).format(toMajor(minor, currency));
}

export default async function SandboxPaymentPage({ params }: { params: Promise<{ txId: string }> }) {
  const { txId } = await params;
  if (!/^tx_[0-9A-Za-z]{24}$/.test(txId)) notFound();
  const tx = await db().transaction.findUnique({ where: { id: txId } });
  if (!tx || tx.environment !== "sandbox") notFound();
  const info = sandboxInstructions(tx);
  return (
    <main className="mx-auto max-w-md px-4 py-8">
      <p role="note" className="mb-4 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
        Test mode: no real money moves.
      </p>
      <h1 className="text-2xl font-semibold">Pay {formatMoney(tx.amountLocal, tx.currencyLocal)}</h1>
      <p className="mt-1 text-slate-700">
        {tx.railName} · reference <span className="font-mono">{tx.id}</span>
      </p>
      <section aria-labelledby="how" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="how" className="text-lg font-semibold">
          {info.title}
        </h2>
        <dl className="mt-3 space-y-2">
          {info.fields.map((f) => (
            <div key={f.label}>
              <dt className="text-sm text-slate-600">{f.label}</dt>
              <dd className="break-all font-mono text-base">{f.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <p className="mt-6" aria-live="polite">
        Status: <strong data-testid="payment-status">{tx.status}</strong>
      </p>
      {tx.status === "pending" ? (
        <form method="post" action={`/pay/sandbox/${tx.id}/action`} className="mt-4 flex gap-3">
          <button name="action" value="paid" className="rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300">
            Simulate paid
          </button>
          <button name="action" value="failed" className="rounded-md bg-slate-700 px-4 py-2 font-medium text-white hover:bg-slate-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300">
            Simulate failed
          </button>
        </form>
      ) : tx.returnUrl ? (
        <a className="mt-4 inline-block text-blue-700 underline" href={tx.returnUrl}>
          Return to the merchant
        </a>
      ) : null}
    </main>
  );
}
