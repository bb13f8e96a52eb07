// The dashboard's navigation, in one place. An entry with `ready: false` names a page that is
// planned but not built yet: it is not shown. Adding the page is new files under
// app/dashboard/(app)/<segment>/ and flipping `ready`.
import { ArrowDownToLine, ArrowUpFromLine, BookOpen, Building2, Code2, Landmark, LayoutDashboard, QrCode, Receipt, Repeat, Route, Scale, Send, ShieldCheck, Store, Users, Webhook, type LucideIcon } from "lucide-react";
import type { Permission } from "@/lib/platform/auth/policy";

export type NavItem = { href: string; label: string; icon: LucideIcon; ready: boolean; requires?: Permission };

export const NAV_ITEMS: NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard, ready: true },
  { href: "/dashboard/payments", label: "Payments", icon: Receipt, ready: true },
  { href: "/dashboard/claims", label: "Refunds and chargebacks", icon: Scale, ready: true },
  { href: "/dashboard/subscriptions", label: "Subscriptions", icon: Repeat, ready: true },
  { href: "/dashboard/qr", label: "Charge with QR", icon: QrCode, ready: true },
  { href: "/dashboard/deposit-accounts", label: "Deposit accounts", icon: Building2, ready: true },
  { href: "/dashboard/payouts", label: "Payouts", icon: Send, ready: true },
  { href: "/dashboard/settlements", label: "Settlements", icon: Landmark, ready: true },
  { href: "/dashboard/withdrawals", label: "Withdrawals", icon: ArrowUpFromLine, ready: true },
  { href: "/dashboard/topups", label: "Top-ups", icon: ArrowDownToLine, ready: true },
  { href: "/dashboard/routing", label: "Routing", icon: Route, ready: true },
  { href: "/dashboard/webhooks", label: "Webhooks", icon: Webhook, ready: true },
  { href: "/dashboard/developers", label: "Developers", icon: Code2, ready: true },
  { href: "/dashboard/api-reference", label: "API reference", icon: BookOpen, ready: true },
  { href: "/dashboard/shops", label: "Shops", icon: Store, ready: true, requires: "seeShops" },
  { href: "/dashboard/team", label: "Team", icon: Users, ready: true, requires: "manageTeam" },
  { href: "/dashboard/security", label: "Security", icon: ShieldCheck, ready: true },
];

export function isActive(href: string, pathname: string): boolean {
  return href === "/dashboard" ? pathname === "/dashboard" : pathname === href || pathname.startsWith(`${href}/`);
}
