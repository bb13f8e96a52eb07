"use client";
// Payouts › Add funds: test money in the sandbox, a transfer from the pay-in balance, and a USD →
// local swap at a live quote. The swap keeps its own form: its quote is live and expires.
import { useEffect, useRef, useState } from "react";
import type { LoaderData } from "@/server/dashboard-loaders";
import { executeSwapAction, fundSandboxAction, quoteSwapAction, transferToPayoutAction } from "@/server/actions/payouts";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { actionError, useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { PayoutBalanceCard, PayoutsHeader } from "@/components/dashboard/pages/payouts";
import { Card } from "@/components/ui/card";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Money, formatMoney } from "@/components/ui/money";
import { IdDetail } from "@/components/ui/id-detail";
import { useTimes } from "@/components/ui/time-zone";
import type { swapQuote } from "@/lib/payouts/schema";
import type { z } from "zod";

type Quote = z.infer<typeof swapQuote>;

export function PayoutFundingView({ environment, initialBalance, initialMethods }: { environment: string; initialBalance: LoaderData<"payout-balance">; initialMethods: LoaderData<"payout-methods"> }) {
  const { data: balance } = useLiveData(environment, "payout-balance", {}, initialBalance, 3_000);
  const { data: methods } = useLiveData(environment, "payout-methods", {}, initialMethods, 5_000);
  const currencies = [...new Set(methods.items.map((m) => m.currency))].sort();
  return (
    <>
      <PayoutsHeader canMoveMoney />
      <PayoutBalanceCard environment={environment} initial={initialBalance} />
      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        {environment === "sandbox" ? <FundSandboxCard currencies={["USD", ...currencies]} /> : null}
        <TransferCard transferable={balance.transferableFromPayinUsd} />
        <SwapCard currencies={currencies} />
      </div>
    </>
  );
}

function FundSandboxCard({ currencies }: { currencies: string[] }) {
  return (
    <Card title="Fund with test money" id="fund-sandbox">
      <p className="mb-3 text-sm text-slate-600">Sandbox only: credits the payout balance with test money.</p>
      <ActionForm
        label="Fund with test money"
        action={fundSandboxAction}
        toArgs={(f) => [{ currency: String(f.get("currency") ?? ""), amount: String(f.get("amount") ?? "") }]}
        fields={["currency", "amount"]}
        labels={{ amount: "Amount to fund" }}
        submitLabel="Fund balance"
        done={(d) => (
          <>
            Funded <Money amount={d.amount} currency={d.currency} />.
          </>
        )}
      >
        {(f) => (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label="Currency" error={f.error("currency")}>
              {(p) => (
                <Select {...p} name="currency" defaultValue="USD">
                  {currencies.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Amount to fund" error={f.error("amount")}>
              {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" />}
            </Field>
          </div>
        )}
      </ActionForm>
    </Card>
  );
}

function TransferCard({ transferable }: { transferable: number }) {
  return (
    <Card title="Transfer from pay-in" id="transfer">
      <p className="mb-3 text-sm text-slate-600">Moves USD from your pay-in available balance to the payout USD balance, at once.</p>
      <ActionForm
        label="Transfer from pay-in"
        action={transferToPayoutAction}
        toArgs={(f) => [{ amountUsd: String(f.get("amountUsd") ?? "") }]}
        fields={["amountUsd"]}
        labels={{ amountUsd: "Amount (USD)" }}
        submitLabel="Transfer"
        done={(d) => (
          <>
            Transferred <Money amount={d.transfer.amountUsd} currency="USD" />.
          </>
        )}
      >
        {(f) => (
          <Field label="Amount (USD)" error={f.error("amountUsd")} hint={<>Transferable: <Money amount={transferable} currency="USD" /></>}>
            {(p) => <Input {...p} name="amountUsd" inputMode="decimal" autoComplete="off" />}
          </Field>
        )}
      </ActionForm>
    </Card>
  );
}

/** Seconds left until `iso`, ticking once a second while a quote is shown. */
function useSecondsLeft(iso: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, [iso]);
  return iso ? Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 1_000)) : null;
}

function SwapCard({ currencies }: { currencies: string[] }) {
  const { formatDateTime } = useTimes();
  const quote = useDashboardMutation(quoteSwapAction);
  const execute = useOnceMutation(executeSwapAction);
  const [currency, setCurrency] = useState(currencies.includes("MXN") ? "MXN" : (currencies[0] ?? ""));
  const [amountUsd, setAmountUsd] = useState("");
  const [current, setCurrent] = useState<Quote | null>(null);
  const debounce = useRef<ReturnType<typeof setTimeout> | null>(null);
  const secondsLeft = useSecondsLeft(current?.expiresAt ?? null);
  const expired = secondsLeft === 0;
  const quoteError = actionError(quote.data, quote.error);
  const executeError = actionError(execute.data, execute.error);
  const swapped = execute.data?.ok ? execute.data.data.swap : null;

  const requestQuote = (c: string, a: string) => {
    setCurrent(null);
    if (a.trim() === "") return;
    quote.mutate([{ currency: c, amountUsd: a }], { onSuccess: (r) => setCurrent(r.ok ? r.data : null) });
  };
  // Live: a new quote shortly after the amount or currency stops changing.
  const schedule = (c: string, a: string) => {
    if (debounce.current) clearTimeout(debounce.current);
    debounce.current = setTimeout(() => requestQuote(c, a), 500);
  };
  useEffect(() => () => void (debounce.current && clearTimeout(debounce.current)), []);

  return (
    <Card title="Swap USD to local currency" id="swap" className="lg:col-span-2">
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (debounce.current) clearTimeout(debounce.current);
          requestQuote(currency, amountUsd);
        }}
      >
        <p className="text-sm text-slate-600">A quote holds its rate for 60 seconds; the fee is 0.50% of the USD amount.</p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field label="To currency" error={quoteError?.param === "currency" ? quoteError.message : undefined}>
            {(p) => (
              <Select
                {...p}
                name="currency"
                value={currency}
                onChange={(e) => {
                  setCurrency(e.target.value);
                  schedule(e.target.value, amountUsd);
                }}
              >
                {currencies.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Amount to swap (USD)" error={quoteError?.param === "amountUsd" ? quoteError.message : undefined}>
            {(p) => (
              <Input
                {...p}
                name="amountUsd"
                inputMode="decimal"
                autoComplete="off"
                value={amountUsd}
                onChange={(e) => {
                  setAmountUsd(e.target.value);
                  schedule(currency, e.target.value);
                }}
              />
            )}
          </Field>
          <div className="flex items-end">
            <Button type="submit" variant="secondary" busy={quote.isPending}>
              {current ? "Refresh quote" : "Get quote"}
            </Button>
          </div>
        </div>
        {quoteError && quoteError.param !== "currency" && quoteError.param !== "amountUsd" ? <FormError message={quoteError.message} /> : null}
      </form>
      {current ? (
        <div className="mt-4 rounded-md border border-slate-200 p-3" data-testid="swap-quote">
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-600">You pay</dt>
              <dd>
                <Money amount={current.amountUsd} currency="USD" />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Fee</dt>
              <dd>
                <Money amount={current.feeUsd} currency="USD" />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Rate</dt>
              <dd className="tabular-nums">
                1 USD = {current.rate} {current.to}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">You get</dt>
              <dd className="font-semibold">
                <Money amount={current.amountLocal} currency={current.to} />
              </dd>
            </div>
          </dl>
          <p className="mt-2 text-sm text-slate-700" data-testid="quote-expiry">
            {expired ? "This quote has expired; refresh it to swap." : `This quote expires in ${secondsLeft} s (${formatDateTime(current.expiresAt)}).`}
          </p>
          <IdDetail id={current.quoteId} label="Quote id" className="mt-1" />
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button
              busy={execute.isPending}
              disabled={expired}
              onClick={() =>
                execute.mutate([current.quoteId], {
                  onSuccess: (r) => {
                    if (r.ok) setCurrent(null);
                  },
                })
              }
            >
              Swap now
            </Button>
          </div>
        </div>
      ) : null}
      {/* Announced once per quote and once on expiry, not on every tick of the countdown. */}
      <p role="status" className="sr-only">
        {current ? (expired ? "The quote has expired." : `Quote: ${formatMoney(current.amountUsd, "USD")} gives ${formatMoney(current.amountLocal, current.to)}, valid 60 seconds.`) : ""}
      </p>
      <div className="mt-3 space-y-2">
        <FormError message={executeError?.message} />
        {swapped && !current ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Swapped <Money amount={swapped.amountUsd} currency="USD" /> into <Money amount={swapped.amountLocal} currency={swapped.to} />.
          </p>
        ) : null}
      </div>
    </Card>
  );
}

