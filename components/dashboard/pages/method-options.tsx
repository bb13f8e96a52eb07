// The routing pages' payment-method choices as <option>s (the rules form, the preview, the trial).
import type { Choice } from "@/components/dashboard/pages/routing-words";

export function MethodOptions({ choices }: { choices: Choice[] }) {
  return (
    <>
      {choices.map((c) => (
        <option key={c.paymentMethodId} value={c.paymentMethodId}>
          {c.name}
        </option>
      ))}
    </>
  );
}
