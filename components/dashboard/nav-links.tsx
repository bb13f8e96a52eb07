"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { NAV_ITEMS, isActive } from "@/components/dashboard/nav";
import { cn } from "@/components/ui/cn";
import { useWords } from "@/components/dashboard/i18n/words";
import { can } from "@/lib/platform/auth/policy";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export function NavLinks({ onNavigate, role }: { onNavigate?: () => void; role?: DashboardRole }) {
  const pathname = usePathname() ?? "";
  const nav = useWords().t.shell.nav;
  return (
    <ul className="space-y-0.5">
      {NAV_ITEMS.filter((i) => i.ready && (!i.requires || (role !== undefined && can(role, i.requires)))).map((item) => {
        const active = isActive(item.href, pathname);
        const Icon = item.icon;
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600",
                active ? "bg-indigo-50 text-indigo-800" : "text-slate-700 hover:bg-slate-100",
              )}
            >
              <Icon aria-hidden className="size-4" />
              {nav[item.href] ?? item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
