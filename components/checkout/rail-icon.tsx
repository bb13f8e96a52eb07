// A rail's icon drawn inline, so its label is in the buyer's language (the public
// /icons/rails/*.svg files, given to integrators by the API, are in English). Decorative: the
// rail's name is always written next to it.
import { railIconLabel } from "@/lib/i18n/rail-label";
import type { Messages } from "@/lib/i18n/messages";

const FILL: Record<string, string> = { pix: "#0f766e", spei: "#1d4ed8", oxxo: "#b91c1c", cash: "#a16207", boleto: "#334155", card: "#4338ca", pse: "#1e3a8a", bank: "#0f172a" };

export function RailIcon({ icon, t, className }: { icon: string; t: Messages; className?: string }) {
  const label = railIconLabel(t, icon);
  const size = label.length > 6 ? 10 : label.length > 4 ? 11 : 13;
  return (
    <svg aria-hidden="true" viewBox="0 0 64 40" width={64} height={40} className={className} data-testid="rail-icon">
      <rect width="64" height="40" rx="8" fill={FILL[icon] ?? "#475569"} />
      <text x="32" y="25" fontFamily="Arial, Helvetica, sans-serif" fontSize={size} fontWeight={700} fill="#fff" textAnchor="middle">
        {label}
      </text>
    </svg>
  );
}
