import type { Metadata } from "next";
import { requireDashboard, withShop } from "@/server/dashboard";
import { AppError } from "@/lib/platform/errors";
import { findEstablishment } from "@/lib/qr/establishments";
import { presentEstablishment } from "@/lib/qr/present";
import { listQrOrders } from "@/lib/qr/orders";
import { QrChargeView } from "@/components/dashboard/pages/qr-charge";

export const metadata: Metadata = { title: "Charge with QR · Dashboard" };

export default async function QrPage() {
  const d = await requireDashboard();
  try {
    // QR establishments are shops; the dashboard charges as the merchant's first shop.
    const ctx = await withShop(d);
    const establishment = presentEstablishment(await findEstablishment(ctx));
    const initial = await listQrOrders(ctx, { limit: 10 });
    return <QrChargeView environment={d.environment} establishment={establishment} initial={initial} canCharge={d.can("collect")} canSimulate={d.can("simulatePayment")} />;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return <QrChargeView environment={d.environment} establishment={null} initial={null} canCharge={false} canSimulate={false} canRegister={d.can("registerQrSandbox")} error={err.message} />;
  }
}
