// shop:installments: a shop's installment plan on one card rail (lib/installments/set-plan.ts).
//   npm run shop:installments -- --shop shp_… --method 1006 [--counts 2,3,…,12] [--min 5.00]
//     [--paid-by merchant|buyer] [--rates 2:249,3:349] [--reset] [--json]
import { setInstallmentPlan, type PlanChange } from "@/lib/installments/set-plan";

type Flags = { shop?: string; method?: string; counts?: string; min?: string; "paid-by"?: string; rates?: string; reset?: boolean };

const ints = (list: string, flag: string) =>
  list.split(",").map((x) => {
    const n = Number(x.trim());
    if (!Number.isInteger(n)) throw new Error(`${flag}: ${x} is not a whole number`);
    return n;
  });

export async function shopInstallments(values: Flags) {
  if (!values.shop) throw new Error("--shop is required");
  if (!values.method) throw new Error("--method is required (a card rail's payment method id, e.g. 1006)");
  const change: PlanChange = { reset: values.reset };
  if (values.counts) change.counts = ints(values.counts, "--counts");
  if (values.min) change.minInstallment = values.min;
  if (values["paid-by"]) change.paidBy = values["paid-by"] as PlanChange["paidBy"];
  if (values.rates) {
    change.rates = Object.fromEntries(
      values.rates.split(",").map((pair) => {
        const [n, bp] = ints(pair.replace(":", ","), "--rates");
        return [n, bp];
      }),
    );
  }
  const plan = await setInstallmentPlan(values.shop, values.method, change);
  const rates = plan.counts.map((n) => `${n}x ${(plan.rates[n]! / 100).toFixed(2)}%`).join(", ");
  const human = `shop ${plan.shopId} ${plan.paymentMethodId}: ${plan.counts.join(", ")} installments, at least ${plan.minInstallment} ${plan.currency} each, paid by the ${plan.paidBy === "merchant" ? "shop (fee of the price)" : "buyer (monthly rate)"}: ${rates}`;
  return { human, plan };
}
