// A plain label with the technical name behind it: a shop owner reads "Providers tried", a
// developer hovering it sees "Cascade attempts (attempts)" as in the API reference.
import type { ReactNode } from "react";

export function Term({ tech, children }: { tech: string; children: ReactNode }) {
  return (
    <span title={tech} data-tech={tech} className="cursor-help underline decoration-slate-300 decoration-dotted underline-offset-4">
      {children}
    </span>
  );
}
