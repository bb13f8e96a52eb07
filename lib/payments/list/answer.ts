// A payments list page as an answer: the list envelope as an object, and its JSON joined from the
// kept items' bytes (lib/payments/list/kept-items.ts) with the request log's redacted text, which
// must equal serialising and redacting the object (lib/payments/list-payments.test.ts compares).
import { listEnvelope, type PageMeta } from "@/lib/platform/paging/pagination";
import { LIST_ITEMS_LOGGED, moreItems, redactedJson } from "@/lib/platform/contract/redact-answer";
import type { KeptItem } from "@/lib/payments/list/kept-items";

/** A page as read: its kept items and the list's other fields. */
export type ListPage = { items: KeptItem[]; meta: PageMeta };

const OPEN = Buffer.from(`{"data":[`);
const COMMA = Buffer.from(",");

/** The page's answer object (the items are frozen, shared with later reads). */
export const valueOf = ({ items, meta }: ListPage) =>
  listEnvelope(
    items.map((i) => i.value),
    meta,
  );

/**
 * The list's answer with its JSON joined from the items' kept bytes, and the request log's
 * redacted text from the items' kept redaction (only the first LIST_ITEMS_LOGGED are logged; a list
 * item sits two levels down the answer): what serialising and redacting the object would give.
 */
export function answerOf({ items, meta }: ListPage) {
  const rest = JSON.stringify(meta).slice(1);
  const parts: Buffer[] = [OPEN];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(items[i]!.json);
  }
  parts.push(Buffer.from(rest === "}" ? "]}" : `],${rest}`));
  const logged = items.slice(0, LIST_ITEMS_LOGGED).map((i) => (i.redacted ??= redactedJson(i.value, 2)));
  if (items.length > LIST_ITEMS_LOGGED) logged.push(JSON.stringify(moreItems(items.length - LIST_ITEMS_LOGGED)));
  const restRedacted = redactedJson(meta, 0).slice(1);
  const redacted = `{"data":[${logged.join(",")}]${restRedacted === "}" ? "}" : `,${restRedacted}`}`;
  return { json: Buffer.concat(parts), redacted };
}
