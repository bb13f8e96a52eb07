import Link from "next/link";
import { API_VERSION } from "@/lib/platform/contract/version";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Latam Payments</h1>
      <p className="mt-4 text-lg text-slate-700">
        Payment orchestration for Latin America: PIX, SPEI, OXXO, boleto, PSE and cards through a cascade of providers, with
        refunds, balances, deposit accounts, payouts and signed webhooks.
      </p>
      <section aria-labelledby="api" className="mt-10 rounded-lg border border-slate-200 bg-white p-6">
        <h2 id="api" className="text-xl font-semibold">
          API
        </h2>
        <p className="mt-2 text-slate-700">
          Version <code className="rounded bg-slate-100 px-1">{API_VERSION}</code>. Authenticate with{" "}
          <code className="rounded bg-slate-100 px-1">Authorization: Bearer sk_test_…</code>.
        </p>
        <ul className="mt-4 list-disc space-y-1 pl-6">
          <li>
            <Link className="text-blue-700 underline underline-offset-2 hover:text-blue-900" href="/api/v1/openapi.json">
              OpenAPI 3.1 document
            </Link>
          </li>
        </ul>
      </section>
    </main>
  );
}
