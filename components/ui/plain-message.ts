// The API's error messages are written for integrators (`field` in backticks, section numbers of
// the reference, endpoint paths). The dashboard shows them in plain words: the few a merchant
// meets in a form are reworded whole; any other loses its backticks and "(reference 3.1)", with
// the field's label instead of its JSON name where the form names it. The API's own messages do
// not change (they are the contract): only what the dashboard shows.

/** API messages a dashboard form can answer, as a shop owner would say them. */
const REWORDED: Array<[RegExp, string]> = [
  [/^Send at least one file in `files` or a statement in `text`\.?$/, "Add at least one file or write a statement before sending."],
  [/^Send one `text` per request/, "Write one statement at a time (you may add several files)."],
  [/^Send `destination` or set a settlement destination first/, "Set where settlements go first (Settlements page), then try again."],
  [/^`won` needs evidence/, "A chargeback can only be won with evidence sent before its due date."],
  [/^Missing required (?:fields?|parameters?|values?)?:?\s*(.*)$/i, "Fill in the required fields: $1"],
];

/** JSON names the API's messages use, as a merchant reads them (where the form gives no label). */
const FIELD_WORDS: Record<string, string> = {
  files: "files",
  text: "statement",
  amount: "amount",
  amountUsd: "amount",
  currency: "currency",
  destination: "destination",
  endUserRef: "customer reference",
  merchantOrderId: "order reference",
  paymentMethodId: "payment method",
  shopId: "shop",
  dueBy: "due date",
};

export function plainMessage(message: string | undefined | null, labels: Record<string, string> = {}): string | undefined {
  if (!message) return undefined;
  let text = message;
  for (const [pattern, words] of REWORDED) {
    if (pattern.test(text)) {
      text = text.replace(pattern, words);
      break;
    }
  }
  return text
    .replace(/`([^`]+)`/g, (_, name: string) => labels[name] ?? FIELD_WORDS[name] ?? name)
    .replace(/\s*\((?:see )?reference [\d.]+\)/gi, "")
    .replace(/\s*\((?:PUT|POST|GET|PATCH|DELETE) \/[^)]*\)/g, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}
