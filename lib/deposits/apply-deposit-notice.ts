// POST /providers/{provider}/deposits: a provider reports a transfer to a CLABE it issued,
// through the notice pipeline (verify, parse, record once, dispatch). The account is found by
// CLABE among the provider's production accounts; crediting is idempotent on the tracking key,
// and the notice id commits in the same transaction as the credit. A notice for a CLABE no usable
// account has is held until one does; a credited notice that disagrees with its pending report is
// held for an operator (lib/deposits/held-deposits.ts).
import { db } from "@/lib/platform/db";
import { holdDeposit, holdDisagreement, logDisagreement } from "@/lib/deposits/held-deposits";
import { depositNoticeBody } from "@/lib/deposits/schema";
import { depositFromNotice, receiveDeposit } from "@/lib/deposits/receive-deposit";
import { receiveNotice } from "@/lib/providers/notice-pipeline";

export async function applyDepositNotice(provider: string, rawBody: string, signature: string | null) {
  return receiveNotice(provider, rawBody, signature, depositNoticeBody, async (n, record) => {
    const account = await db().depositAccount.findFirst({ where: { clabe: n.clabe, provider, environment: "production", status: { not: "provisioning" } }, select: { id: true } });
    if (!account) {
      // Money for a CLABE we do not know yet (its account may still be provisioning: the
      // provider issued it and lost its answer to us). Held, never dropped: applied when an
      // account with that CLABE becomes active (lib/deposits/held-deposits.ts).
      await holdDeposit(provider, n, record);
      return false;
    }
    const r = await receiveDeposit(account.id, depositFromNotice(n), { inTransaction: record, hold: holdDisagreement(provider, n) });
    if (r.held) logDisagreement({ provider, noticeId: n.noticeId, account: account.id }, r.held);
    return r.created || r.credited;
  });
}
