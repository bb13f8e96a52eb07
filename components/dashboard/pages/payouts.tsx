"use client";
// Payouts: the payout balance per currency, funding it (sandbox test money, or a transfer from
// the pay-in balance), a USD → local swap at a live quote, sending, and the list. Every action is
// a server action calling the API's lib/payouts use case; reads are the API's reads.
import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import type { z } from "zod";
import { executeSwapAction, fundSandboxAction, quoteSwapAction, transferToPayoutAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { actionError, useDashboardData, useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { SendPayoutCard, type PayoutMethodRow } from "@/components/dashboard/pages/payout-send";
import type { Payout } from "@/components/dashboard/pages/payout-detail";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/badge";
import { Money, formatDateTime } from "@/components/ui/money";
import { PAYOUT_STATUSES, type payoutBalance, type swapQuote } from "@/lib/payouts/schema";

type Balance = z.infer<typeof payoutBalance>;
type Quote = z.infer<typeof swapQuote>;
type Envelope = { data: Payout[]; pagination?: { total: number; limit: number; offset: number; pages: number } };

export function PayoutsView({
  environment,
  canMoveMoney,
  params,
  initialBalance,
  initialMethods,
  initialList,
  listError,
}: {
  environment: string;
  canMoveMoney: boolean;
  params: Record<string, string>;
  initialBalance: Balance;
  initialMethods: { items: PayoutMethodRow[] };
  initialList: Envelope | null;
  listError?: { message: string; param?: string };
}) {
  const { data: balance } = useLiveData<Balance>(environment, "payout-balance", {}, initialBalance, 3_000);
  const { data: methods } = useLiveData<{ items: PayoutMethodRow[] }>(environment, "payout-methods", {}, initialMethods, 5_000);
  const currencies = [...new Set(methods.items.map((m) => m.currency))].sort();
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader title="Payouts" description="A payout balance per currency, funded from your pay-in balance, swapped from USD, and sent to bank accounts and PIX keys." />
      <Card className="mb-6" title="Payout balance" id="payout-balance">
        <dl className="mb-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Stat label="Transferable from pay-in" value={<Money amount={balance.transferableFromPayinUsd} currency="USD" />} hint="Your pay-in available balance" />
          <Stat label="Payout USD available" value={<Money amount={balance.balances.find((b) => b.currency === "USD")?.available ?? 0} currency="USD" />} />
        </dl>
        <Table caption="Payout balance per currency">
          <thead>
            <tr>
              <Th>Currency</Th>
              <Th className="text-right">Available</Th>
              <Th className="text-right">Reserved by processing payouts</Th>
              <Th className="text-right">Pending</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {balance.balances.map((b) => (
              <tr key={b.currency} data-testid="payout-balance-row" data-currency={b.currency}>
                <Td className="font-medium">{b.currency}</Td>
                <Td className="text-right" data-testid="balance-available">
                  <Money amount={b.available} currency={b.currency} />
                </Td>
                <Td className="text-right" data-testid="balance-reserved">
                  <Money amount={b.reserved} currency={b.currency} />
                </Td>
                <Td className="text-right">
                  <Money amount={b.pending} currency={b.currency} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>
      {canMoveMoney ? (
        <>
          <div className="mb-6 grid gap-6 lg:grid-cols-2">
            {sandbox ? <FundSandboxCard currencies={["USD", ...currencies]} /> : null}
            <TransferCard transferable={balance.transferableFromPayinUsd} />
            <SwapCard currencies={currencies} />
          </div>
          <div className="mb-6">
            <SendPayoutCard methods={methods.items} />
          </div>
        </>
      ) : null}
      <PayoutList environment={environment} params={params} initial={initialList} error={listError} />
    </>
  );
}

function FundSandboxCard({ currencies }: { currencies: string[] }) {
  const fund = useOnceMutation(fundSandboxAction);
  const error = actionError(fund.data, fund.error);
  const done = fund.data?.ok ? fund.data.data : null;
  return (
    <Card title="Fund with test money" id="fund-sandbox">
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          fund.mutate([{ currency: String(f.get("currency") ?? ""), amount: String(f.get("amount") ?? "") }]);
        }}
      >
        <p className="text-sm text-slate-600">Sandbox only: credits the payout balance from nowhere.</p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label="Currency" error={error?.param === "currency" ? error.message : undefined}>
            {(p) => (
              <Select {...p} name="currency" defaultValue="USD">
                {currencies.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Amount to fund" error={error?.param === "amount" ? error.message : undefined}>
            {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" />}
          </Field>
        </div>
        {error && error.param !== "amount" && error.param !== "currency" ? <FormError message={error.message} /> : null}
        {done ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Funded <Money amount={done.amount} currency={done.currency} />.
          </p>
        ) : null}
        <Button type="submit" busy={fund.isPending}>
          Fund balance
        </Button>
      </form>
    </Card>
  );
}

function TransferCard({ transferable }: { transferable: number }) {
  const transfer = useOnceMutation(transferToPayoutAction);
  const error = actionError(transfer.data, transfer.error);
  const done = transfer.data?.ok ? transfer.data.data : null;
  return (
    <Card title="Transfer from pay-in" id="transfer">
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          transfer.mutate([{ amountUsd: String(new FormData(e.currentTarget).get("amountUsd") ?? "") }]);
        }}
      >
        <p className="text-sm text-slate-600">Moves USD from your pay-in available balance to the payout USD balance, at once.</p>
        <Field label="Amount (USD)" error={error?.param === "amountUsd" ? error.message : undefined} hint={<>Transferable: <Money amount={transferable} currency="USD" /></>}>
          {(p) => <Input {...p} name="amountUsd" inputMode="decimal" autoComplete="off" />}
        </Field>
        {error && error.param !== "amountUsd" ? <FormError message={error.message} /> : null}
        {done ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Transferred <Money amount={done.transfer.amountUsd} currency="USD" /> ({done.transfer.id}).
          </p>
        ) : null}
        <Button type="submit" busy={transfer.isPending}>
          Transfer
        </Button>
      </form>
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
            {expired ? "This quote has expired; refresh it to swap." : `Quote ${current.quoteId} expires in ${secondsLeft} s (${formatDateTime(current.expiresAt)}).`}
          </p>
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
        {current ? (expired ? "The quote has expired." : `Quote: ${current.amountUsd} USD gives ${current.amountLocal} ${current.to}, valid 60 seconds.`) : ""}
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

function PayoutList({ environment, params, initial, error }: { environment: string; params: Record<string, string>; initial: Envelope | null; error?: { message: string; param?: string } }) {
  const q = useDashboardData<Envelope>(environment, "payouts", params, { initialData: initial ?? undefined, refetchInterval: 3_000, enabled: !error });
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/payouts?${new URLSearchParams({ ...linkParams, offset: String(offset) })}#payouts-list`;
  return (
    <Card
      title="Payouts"
      id="payouts-list"
      actions={
        <form method="get" action="/dashboard/payouts" aria-label="Filter payouts" className="flex items-end gap-2">
          <Field label="Status" error={error?.param === "status" ? error.message : undefined}>
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">Any</option>
                {PAYOUT_STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      }
    >
      {error && error.param !== "status" ? <FormError message={error.message} /> : null}
      {error ? (
        <EmptyState title="Fix the filter to see payouts." />
      ) : q.isPending ? (
        <Loading />
      ) : q.data && q.data.data.length > 0 ? (
        <>
          <Table caption="Payouts, newest first">
            <thead>
              <tr>
                <Th>Payout</Th>
                <Th className="text-right">Amount</Th>
                <Th>Status</Th>
                <Th>Method</Th>
                <Th>Recipient</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {q.data.data.map((p) => (
                <tr key={p.id} data-testid="payout-row" data-payout-id={p.id}>
                  <Td>
                    <Link href={`/dashboard/payouts/${p.id}`} className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                      {p.id}
                    </Link>
                  </Td>
                  <Td className="text-right">
                    <Money amount={p.amount} currency={p.currency} />
                  </Td>
                  <Td>
                    <StatusBadge status={p.status} />
                  </Td>
                  <Td>{p.methodName}</Td>
                  <Td>
                    {p.recipient.name} ••••{p.recipient.accountLast4}
                  </Td>
                  <Td>{formatDateTime(p.createdAt)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination pagination={q.data.pagination} href={href} label="Payout pages" />
        </>
      ) : (
        <EmptyState title={params.status ? `No ${params.status} payouts` : "No payouts yet"}>Payouts you send here or with POST /api/v1/me/payout/send appear here.</EmptyState>
      )}
    </Card>
  );
}
