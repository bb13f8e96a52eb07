"use client";
// "Charge with QR" for counter staff: type the amount, show the PIX code to the payer (here, or on
// the counter screen /qr/{token} on a tablet facing them), watch it turn paid. Recent orders below.
// In the sandbox, buttons settle the order as a payer's bank would.
import type { LoaderData } from "@/server/dashboard-loaders";
import { useState } from "react";
import { useRouter } from "next/navigation";
import type { z } from "zod";
import { cancelQrOrderAction, createQrOrderAction, simulateQrOrderAction } from "@/server/actions/qr";
import { registerQrSandboxAction } from "@/server/actions/sandbox";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { actionError, useDashboardData, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import type { qrEstablishment, qrOrder } from "@/lib/qr/schema";
import { statusWord } from "@/components/dashboard/status-words";

type Order = z.infer<typeof qrOrder>;
type Establishment = z.infer<typeof qrEstablishment>;
type Orders = LoaderData<"qr-orders">;

export function QrChargeView({ environment, establishment, initial, canCharge, canSimulate, canRegister = false, error }: { environment: string; establishment: Establishment | null; initial: Orders | null; canCharge: boolean; canSimulate: boolean; canRegister?: boolean; error?: string }) {
  const [current, setCurrent] = useState<string | null>(null);
  if (!establishment || !initial) {
    const sandbox = environment === "sandbox";
    return (
      <>
        <PageHeader title="Charge with QR" description="Show a PIX code at the counter and watch it get paid." />
        <Card>
          <EmptyState title="This shop cannot charge with QR yet">
            {sandbox
              ? canRegister
                ? "Register the shop below to try counter charges in the sandbox. It does not register the shop in production."
                : "The shop's owner or a developer can register it here to try counter charges in the sandbox."
              : (error ?? "This shop is not registered for QR collection.")}
          </EmptyState>
        </Card>
        {sandbox && canRegister ? <RegisterCard /> : null}
      </>
    );
  }
  return (
    <>
      <PageHeader title="Charge with QR" description={`${establishment.name}, ${establishment.city} · PIX (Brazil)`} />
      {establishment.status === "suspended" ? (
        <p role="alert" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          This establishment is suspended: it cannot issue new codes. Codes already shown can still be paid.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        {canCharge && establishment.status === "active" ? <NewOrderCard onCreated={setCurrent} /> : null}
        {current ? <CurrentOrderCard environment={environment} id={current} canCharge={canCharge} canSimulate={canSimulate} /> : null}
      </div>
      <RecentOrders environment={environment} initial={initial} onOpen={setCurrent} />
    </>
  );
}

function RegisterCard() {
  const router = useRouter();
  return (
    <Card title="Register this shop for QR charges (sandbox)" id="qr-register" className="mt-6">
      <ActionForm
        label="Register this shop for QR charges"
        action={registerQrSandboxAction}
        toArgs={(f) => [{ name: String(f.get("name") ?? ""), city: String(f.get("city") ?? ""), mcc: String(f.get("mcc") ?? "") }]}
        fields={["name", "city", "mcc"]}
        labels={{ name: "Name on the code", city: "City", mcc: "Business category (MCC)" }}
        submitLabel="Register shop"
        onDone={() => router.refresh()}
        done={() => <>Registered. Loading the charge form…</>}
      >
        {(f) => (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Field label="Name on the code" hint="What the payer's bank app shows." error={f.error("name")}>
              {(p) => <Input {...p} name="name" required maxLength={60} autoComplete="organization" />}
            </Field>
            <Field label="City" error={f.error("city")}>
              {(p) => <Input {...p} name="city" required maxLength={40} />}
            </Field>
            <Field label="Business category (MCC)" hint="4 digits: 5812 restaurants, 5411 groceries." error={f.error("mcc")}>
              {(p) => <Input {...p} name="mcc" required inputMode="numeric" pattern="[0-9]{4}" maxLength={4} defaultValue="5812" />}
            </Field>
          </div>
        )}
      </ActionForm>
    </Card>
  );
}

function NewOrderCard({ onCreated }: { onCreated: (id: string) => void }) {
  const create = useOnceMutation(createQrOrderAction);
  const error = actionError(create.data, create.error);
  return (
    <Card title="New charge" id="qr-new">
      <form
        aria-label="New QR charge"
        className="space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const f = new FormData(form);
          const r = await create.mutateAsync([{ amount: String(f.get("amount") ?? ""), merchantOrderId: String(f.get("merchantOrderId") ?? ""), description: String(f.get("description") ?? "") }]);
          if (r.ok) {
            form.reset();
            onCreated(r.data.order.id);
          }
        }}
      >
        <Field label="Amount (BRL)" error={error?.param === "amount" ? error.message : undefined}>
          {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" required placeholder="25,50" />}
        </Field>
        <Field label="Order reference" hint="Your ticket or table number." error={error?.param === "merchantOrderId" ? error.message : undefined}>
          {(p) => <Input {...p} name="merchantOrderId" required maxLength={120} />}
        </Field>
        <Field label="Description (optional)">{(p) => <Input {...p} name="description" maxLength={200} />}</Field>
        <FormError message={error && error.param !== "amount" && error.param !== "merchantOrderId" ? error.message : undefined} />
        <Button type="submit" busy={create.isPending} disabled={create.isPending}>
          Show QR code
        </Button>
      </form>
    </Card>
  );
}

function CurrentOrderCard({ environment, id, canCharge, canSimulate }: { environment: string; id: string; canCharge: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useDashboardData(environment, "qr-order", { id }, { refetchInterval: 2_000 });
  const cancel = useOnceMutation(cancelQrOrderAction);
  const simulate = useOnceMutation(simulateQrOrderAction);
  const o = data?.order;
  if (!o) return <Card title="QR code">Loading…</Card>;
  const pending = o.status === "pending";
  const cancelError = actionError(cancel.data, cancel.error);
  return (
    <Card title="QR code" id="qr-current">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-2xl font-semibold">
          <Money amount={o.amountLocal} currency={o.currencyLocal} />
        </p>
        <span data-testid="qr-order-status">
          <StatusBadge of="qrOrder" status={o.status} />
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {o.merchantOrderId} · {pending ? `expires ${formatDateTime(o.expiresAt)}` : o.paidAt ? `paid ${formatDateTime(o.paidAt)}` : statusWord("qrOrder", o.status).toLowerCase()}
      </p>
      {pending ? (
        // eslint-disable-next-line @next/next/no-img-element -- an SVG we serve, sized by CSS
        <img src={`/qr/${o.token}/qr.svg`} alt={`PIX QR code for ${o.amountLocal} ${o.currencyLocal}`} className="mx-auto my-4 w-56 max-w-full" />
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <a className="inline-flex items-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-indigo-700 underline-offset-2 hover:underline" href={`/qr/${o.token}`} target="_blank" rel="noopener">
          Open counter screen
        </a>
        {canCharge && pending ? (
          <Button variant="secondary" size="sm" busy={cancel.isPending} disabled={cancel.isPending} onClick={() => cancel.mutate([o.id])}>
            Cancel charge
          </Button>
        ) : null}
      </div>
      <FormError message={cancelError?.message} />
      {canSimulate && environment === "sandbox" ? (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <p className="mb-2 text-sm text-slate-600">Sandbox: settle it as the payer&apos;s bank would.</p>
          <SimulateButtons
            simulations={[
              { action: "paid", label: "Simulate paid", enabled: pending },
              { action: "expired", label: "Simulate expired", enabled: pending },
            ]}
            busy={simulate.isPending}
            pendingAction={simulate.variables?.[1]}
            error={simulate.data && !simulate.data.ok ? simulate.data.error.message : simulate.error?.message}
            onSimulate={(action) => simulate.mutate([o.id, action as "paid" | "expired"])}
          />
        </div>
      ) : null}
    </Card>
  );
}

function RecentOrders({ environment, initial, onOpen }: { environment: string; initial: Orders; onOpen: (id: string) => void }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "qr-orders", { limit: 10 }, initial, 5_000);
  return (
    <Card title="Recent QR charges" id="qr-recent" className="mt-6">
      {data.data.length === 0 ? (
        <EmptyState title="No QR charges yet">Charges you show at the counter appear here.</EmptyState>
      ) : (
        <Table caption="QR charges, newest first">
          <thead>
            <tr>
              <Th>Reference</Th>
              <Th className="text-right">Amount</Th>
              <Th>Status</Th>
              <Th>Created</Th>
              <Th>Payment</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.data.map((o) => (
              <tr key={o.id} data-testid="qr-row">
                <Td>
                  <button type="button" className="text-indigo-700 underline underline-offset-2" onClick={() => onOpen(o.id)}>
                    {o.merchantOrderId}
                  </button>
                </Td>
                <Td className="text-right">
                  <Money amount={o.amountLocal} currency={o.currencyLocal} />
                </Td>
                <Td>
                  <StatusBadge of="qrOrder" status={o.status} />
                </Td>
                <Td>{formatDateTime(o.createdAt)}</Td>
                <Td>
                  <a className="font-mono text-xs text-indigo-700 underline underline-offset-2" href={`/dashboard/payments/${o.transactionId}`}>
                    {o.transactionId}
                  </a>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
