// Payment instructions a provider returned instead of a hosted page (e.g. a voucher reference):
// the service shows them on its own page.
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";

export const dynamic = "force-dynamic";

export default async function InstructionsPage({ params }: { params: Promise<{ provider: string; txId: string }> }) {
  const { provider, txId } = await params;
  if (!/^tx_[0-9A-Za-z]{24}$/.test(txId)) notFound();
  const tx = await db().transaction.findUnique({ where: { id: txId } });
  if (!tx || tx.provider !== provider || !tx.instructions) notFound();
  const entries = Object.entries(tx.instructions as Record<string, unknown>).filter(([k]) => k !== "amount" && k !== "currency");
  const amount = new Intl.NumberFormat("en", { style: "currency", currency: tx.currencyLocal }).format(toMajor(tx.amountLocal, tx.currencyLocal));
  return (
    <main className="mx-auto max-w-md px-4 py-8">
      <h1 className="text-2xl font-semibold">Pay {amount}</h1>
      <p className="mt-1 text-slate-700">{tx.railName}</p>
      <dl className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt className="text-sm capitalize text-slate-600">{k}</dt>
            <dd className="break-all font-mono">{String(v)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6">
        Status: <strong>{tx.status}</strong>
      </p>
    </main>
  );
}
