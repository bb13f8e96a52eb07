// GET /payments: a page of the caller's payments, scoped by merchant, environment and (for
// shop-bound credentials) shop, filtered (lib/payments/list/filter.ts), newest first, by offset or
// cursor (lib/payments/list/pages.ts). Items are kept presented per row version
// (lib/payments/list/kept-items.ts), so the API's answer is joined from kept JSON
// (lib/payments/list/answer.ts): parsing fifty wide rows, presenting them and serialising 40 KB
// were most of a list request's CPU (docs/contributors/benchmarks.md, "Lists from kept items").
import { z } from "zod";
import { readPage } from "@/lib/platform/paging/pagination";
import { withJson } from "@/lib/platform/contract/json-text";
import { filterOf } from "@/lib/payments/list/filter";
import { cursorPage, offsetPage } from "@/lib/payments/list/pages";
import { answerOf, valueOf, type ListPage } from "@/lib/payments/list/answer";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";

/** GET /payments' answer, with its JSON attached (the API writes it as it is; see answerOf). */
export async function listPaymentsAnswer(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  const page = await readList(auth, query);
  const { json, redacted } = answerOf(page);
  return withJson(valueOf(page), json, redacted);
}

/** The list as an object (the dashboard's payments page: no JSON joined); the items are frozen, shared with later reads. */
export async function listPayments(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  return valueOf(await readList(auth, query));
}

function readList(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>): Promise<ListPage> {
  const page = readPage(query);
  const f = filterOf(auth, query);
  return page.kind === "cursor" ? cursorPage(auth, f, page) : offsetPage(auth, query, f, page);
}
