import type { Metadata } from "next";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Latam Payments",
  description: "Payment orchestration for Latin America: pay-ins, refunds, deposit accounts, payouts and webhooks.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The buyer pages render their own document (server/buyer-page.tsx); what uses this layout is English.
  const lang = (await headers()).get("x-buyer-locale") ?? "en";
  return (
    <html lang={lang}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
