// The Shops page (owners): each shop with its status, its keys per environment, its payment
// methods in the environment being viewed and its card installment plans (the one thing changed
// here). Shops are opened by an operator (shop:create), which is also when a secret key is shown, once.
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { countryName } from "@/components/dashboard/payment-labels";
import { methodName } from "@/components/dashboard/plain-words";
import { Table, Td, Th } from "@/components/ui/table";
import { formatDateTime } from "@/lib/platform/format/date-time";
import type { ShopSummary } from "@/lib/merchants/list-shops";
import type { RailPlanView } from "@/lib/dashboard/installment-plans";
import { ShopInstallments } from "@/components/dashboard/pages/shop-installments";

const ENV_LABEL = { sandbox: "Sandbox", production: "Production" } as const;

/** A server component (no client hooks): times in the merchant's zone, given by the page. */
export function ShopsView({ shops, installments, canEditInstallments, environment, timeZone }: { shops: ShopSummary[]; installments: Record<string, RailPlanView[]>; canEditInstallments: boolean; environment: "sandbox" | "production"; timeZone: string }) {
  return (
    <>
      <PageHeader
        title="Shops"
        description="Each shop has its own keys and payment methods. A shop's keys see and change only that shop's payments, events, exports and webhook subscriptions; you, in the dashboard, see every shop."
      />
      <div className="space-y-6">
        {shops.map((s) => {
          const on = s.methods.filter((m) => m.enabled);
          const off = s.methods.filter((m) => !m.enabled);
          return (
            <Card key={s.id} id={`shop-${s.id}`} title={s.name} actions={<StatusBadge of="shop" status={s.status} />}>
              <div className="space-y-5">
                <DescriptionList
                  items={[
                    ["Shop id", <span key="id" className="flex items-center gap-2"><code className="break-all font-mono text-xs">{s.id}</code><CopyButton value={s.id} /></span>],
                    ["Opened", formatDateTime(s.createdAt, timeZone)],
                  ]}
                />
                <Table caption={`Keys of ${s.name}`}>
                  <thead>
                    <tr>
                      <Th>Environment</Th>
                      <Th>Publishable key</Th>
                      <Th>Secret key</Th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {s.keys.flatMap((k) =>
                      k.pairs.length
                        ? k.pairs.map((p) => (
                            <tr key={p.id}>
                              <Td>{ENV_LABEL[k.environment]}</Td>
                              <Td>
                                <code className="font-mono text-xs">{p.publishableKey}</code>
                              </Td>
                              <Td>
                                <code className="font-mono text-xs">{p.secretKey}</code>
                              </Td>
                            </tr>
                          ))
                        : [
                            <tr key={k.environment}>
                              <Td>{ENV_LABEL[k.environment]}</Td>
                              <Td colSpan={2}>No active keys</Td>
                            </tr>,
                          ],
                    )}
                  </tbody>
                </Table>
                <p className="text-xs text-slate-600">Secret keys are shown in full only when they are made; here, their last four characters.</p>
                <section aria-labelledby={`methods-${s.id}`}>
                  <h3 id={`methods-${s.id}`} className="text-sm font-semibold text-slate-900">
                    Payment methods ({ENV_LABEL[environment].toLowerCase()}): {on.length} of {s.methods.length} on
                  </h3>
                  <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={`Methods on for ${s.name}`}>
                    {on.map((m) => (
                      <li key={m.id}>
                        <Badge tone="green" tech={m.id}>
                          {methodName(m.name)} · {countryName(m.country)}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                  {off.length ? (
                    <>
                      <p className="mt-3 text-xs font-medium text-slate-700">Turned off</p>
                      <ul className="mt-1 flex flex-wrap gap-1.5" aria-label={`Methods off for ${s.name}`}>
                        {off.map((m) => (
                          <li key={m.id}>
                            <Badge tech={m.id}>
                              {methodName(m.name)} · {countryName(m.country)}
                            </Badge>
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                </section>
                <ShopInstallments shopId={s.id} plans={installments[s.id] ?? []} canEdit={canEditInstallments} />
              </div>
            </Card>
          );
        })}
      </div>
    </>
  );
}
