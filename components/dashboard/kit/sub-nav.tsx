"use client";
// Tabs of a section split into sub-pages (Payouts: list, balance and funding, send): real links,
// the current one marked with aria-current.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

export function SubNav({ label, tabs }: { label: string; tabs: ReadonlyArray<{ href: string; label: string }> }) {
  const path = usePathname();
  return (
    <nav aria-label={label} className="mb-6 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-4">
        {tabs.map((t) => {
          const current = path === t.href;
          return (
            <li key={t.href}>
              <Link
                href={t.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-block border-b-2 px-1 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600",
                  current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
                )}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
