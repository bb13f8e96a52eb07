// What each command of a sandbox ledger property run does (not a test file itself): pay-ins and
// their simulations, refunds and chargeback answers, QR orders, withdrawals, top-ups, deposits to a
// CLABE, payout funding, transfers, swaps and sends, and the jobs, all through the API or the
// job functions the server runs.
import { API_URL, type ApiOptions, type ApiResponse } from "./helpers.ts";
import { registerEstablishment } from "@/lib/qr/establishments";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";
import { resolveDispute } from "@/lib/claims/resolve-dispute";
import { DAY, RAIL_DATA, type Cmd, PAYOUT_METHODS, RECIPIENTS, openChargebacks, usdMinor, j } from "./ledger-property-model.ts";

/** What a command needs of its run (ledger-property-run.ts' Run): its merchant, its requests, what it made so far. */
export type CommandRun = {
  readonly merchantId: string;
  readonly key: string;
  readonly payments: Array<{ id: string; amountLocal: number; currencyLocal: string }>;
  readonly payouts: string[];
  depositAccountId: string | null;
  lastTrackingKey: string | null;
  qrReady: boolean;
  call(path: string, opts?: ApiOptions): Promise<ApiResponse>;
  fail(step: string, message: string): never;
};

/** One command of a run, through the API (or the job it names); what it answered, for the trace. */
export async function execCmd(run: CommandRun, cmd: Cmd): Promise<string> {
  switch (cmd.kind) {
    case "create": {
      const amount = cmd.cents / 100;
      const headers: Record<string, string> = cmd.sandboxSimulate ? { "sandbox-simulate": cmd.sandboxSimulate } : {};
      const installments = cmd.rail === "sbx_br_card" && cmd.installments ? { installments: cmd.installments } : {};
      const res = await run.call("/payments", { body: { amount, paymentMethodId: cmd.rail, ...RAIL_DATA[cmd.rail], ...installments }, headers });
      if (res.status === 400 && res.body?.error?.code === "installments_unavailable") return `400 installments_unavailable ${j(res.body.error.details.allowed)}`;
      if (res.status !== 200 && res.status !== 201) run.fail(`create ${cmd.rail} ${amount}`, `expected 2xx, got ${res.status} ${res.text.slice(0, 400)}`);
      run.payments.push({ id: res.body.transactionId, amountLocal: res.body.amountLocal, currencyLocal: res.body.currencyLocal });
      return `${res.status} ${res.body.transactionId}`;
    }
    case "simulate": {
      const p = run.payments[cmd.pick % Math.max(1, run.payments.length)];
      if (!p) return "skipped (no payment)";
      const res = await run.call(`/payments/${p.id}/simulate`, { body: { action: cmd.action } });
      const ok = res.status === 200 || (res.status === 400 && res.body?.error?.code === "invalid_request");
      if (!ok) run.fail(`simulate ${cmd.action} ${p.id}`, `unexpected ${res.status} ${res.text.slice(0, 400)}`);
      return `${p.id} ${res.status} ${res.status === 200 ? res.body.status : res.body.error.code}`;
    }
    case "refund": {
      const p = run.payments[cmd.pick % Math.max(1, run.payments.length)];
      if (!p) return "skipped (no payment)";
      let body: Record<string, unknown> = {};
      if (cmd.percent !== null) {
        const minor = BigInt(Math.round(p.amountLocal * 100));
        const part = (minor * BigInt(cmd.percent)) / 100n;
        body = { amount: toMajor(part > 0n ? part : 1n, p.currencyLocal) };
      }
      const res = await run.call(`/payments/${p.id}/refund`, { body });
      const code = res.body?.error?.code;
      const ok =
        res.status === 200 || res.status === 201 || (res.status === 422 && (code === "balance_insufficient" || code === "amount_out_of_limits")) || (res.status === 400 && (code === "invalid_request" || code === "amount_invalid"));
      if (!ok) run.fail(`refund ${p.id} ${j(body)}`, `unexpected ${res.status} ${res.text.slice(0, 400)}`);
      return `${p.id} ${j(body)} ${res.status} ${code ?? `${res.body.status} ${res.body.amountUsd} USD`}`;
    }
    case "runScheduledActions":
      return j(await runScheduledActions({ merchantId: run.merchantId }));
    case "settle":
      return `${await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: run.merchantId })} settled`;
    case "releaseReserves":
      return `${await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY), merchantId: run.merchantId })} released`;
    case "deposit": {
      if (!run.depositAccountId) {
        const a = await run.call("/me/deposit-accounts", { body: { endUserRef: "property-user", name: "Property User", email: "property@example.com" } });
        if (a.status !== 201 && a.status !== 200) run.fail("create deposit account", `${a.status} ${a.text.slice(0, 300)}`);
        run.depositAccountId = a.body.account.id as string;
      }
      const trackingKey = cmd.repeat && run.lastTrackingKey ? run.lastTrackingKey : `PROP${Math.random().toString(36).slice(2, 14).toUpperCase()}`;
      run.lastTrackingKey = trackingKey;
      const amount = toMajor(BigInt(cmd.mxnCents), "MXN");
      const res = await run.call(`/me/deposit-accounts/${run.depositAccountId}/simulate-deposit`, { body: { amount, payerName: "Payer", payerBank: "Banorte", trackingKey } });
      if (res.status !== 201 && res.status !== 200) run.fail(`deposit ${amount}`, `${res.status} ${res.text.slice(0, 300)}`);
      const d = res.body.deposit;
      if (d.status === "credited" && d.transactionId && !run.payments.some((p) => p.id === d.transactionId)) run.payments.push({ id: d.transactionId, amountLocal: d.amount, currencyLocal: "MXN" });
      return `${res.status} ${d.id} ${d.status} ${d.amountUsd} USD`;
    }
    case "fundSandbox": {
      const res = await run.call("/me/payout/fund-sandbox", { body: { currency: cmd.currency, amount: toMajor(BigInt(cmd.cents), cmd.currency) } });
      if (res.status !== 200) run.fail(`fund ${cmd.currency}`, `${res.status} ${res.text.slice(0, 300)}`);
      return `${cmd.cents} ${cmd.currency}`;
    }
    case "transfer": {
      const available = usdMinor((await run.call("/me/balance")).body.balance.available);
      // Nothing available: ask for 1.00 anyway (a refusal must move nothing either).
      const amount = Math.floor((Math.max(0, available) * cmd.percent) / 100) || 100;
      const res = await run.call("/me/payout/transfer", { body: { amountUsd: amount / 100 } });
      const ok = res.status === 200 || (res.status === 422 && res.body?.error?.code === "balance_insufficient");
      if (!ok) run.fail(`transfer ${amount}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
      return `${amount / 100} USD ${res.status}`;
    }
    case "swap": {
      const usd = (await run.call("/me/payout/balance")).body.balances.find((b: any) => b.currency === "USD").available as number;
      const amount = Math.floor((usdMinor(usd) * cmd.percent) / 100) || 100;
      const q = await run.call(`/me/payout/swap?currency=${cmd.currency}&amountUsd=${amount / 100}`);
      if (q.status !== 200) {
        if (q.status === 400 && q.body?.error?.code === "amount_invalid") return `${amount / 100} too small`;
        run.fail(`quote ${cmd.currency}`, `${q.status} ${q.text.slice(0, 300)}`);
      }
      const runs = await Promise.all(Array.from({ length: cmd.executeTwice ? 2 : 1 }, () => run.call("/me/payout/swap", { body: { quoteId: q.body.quoteId } })));
      const executed = runs.filter((r) => r.status === 200).length;
      for (const r of runs) {
        const code = r.body?.error?.code;
        const ok = r.status === 200 || (r.status === 422 && code === "balance_insufficient") || (r.status === 400 && r.body.error.details?.reason === "quote_already_executed");
        if (!ok) run.fail(`swap ${q.body.quoteId}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
      }
      if (executed > 1) run.fail(`swap ${q.body.quoteId}`, "a quote executed twice");
      return `${amount / 100} USD -> ${cmd.currency} executed ${executed}`;
    }
    case "send": {
      const currency = PAYOUT_METHODS[cmd.methodId];
      const have = (await run.call("/me/payout/balance")).body.balances.find((b: any) => b.currency === currency)?.available ?? 0;
      const amount = Math.floor((usdMinor(have) * cmd.percent) / 100) || 1000;
      const res = await run.call("/me/payout/send", { body: { methodId: cmd.methodId, amount: amount / 100, recipient: RECIPIENTS[currency] } });
      const code = res.body?.error?.code;
      const ok = res.status === 200 || (res.status === 422 && (code === "balance_insufficient" || code === "currency_not_funded"));
      if (!ok) run.fail(`send ${cmd.methodId} ${amount}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
      if (res.status === 200) run.payouts.push(res.body.payout.id);
      return `${amount / 100} ${currency} ${res.status} ${res.status === 200 ? res.body.payout.id : code}`;
    }
    case "simulatePayout": {
      const id = run.payouts[cmd.pick % Math.max(1, run.payouts.length)];
      if (!id) return "skipped (no payout)";
      const res = await run.call(`/me/payout/send/${id}/simulate`, { body: { action: cmd.action } });
      const ok = res.status === 200 || (res.status === 400 && res.body?.error?.code === "invalid_request");
      if (!ok) run.fail(`simulate payout ${cmd.action} ${id}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
      return `${id} ${res.status} ${res.status === 200 ? res.body.payout.status : res.body.error.code}`;
    }
    case "qrOrder": {
      if (!run.qrReady) {
        const shop = await db().shop.findFirstOrThrow({ where: { merchantId: run.merchantId } });
        await registerEstablishment({ shopId: shop.id, name: "Property Cafe", city: "Sao Paulo", mcc: "5814" });
        run.qrReady = true;
      }
      const made = await run.call("/qr/orders", { body: { amount: cmd.cents / 100, merchantOrderId: `qr-${cmd.cents}` } });
      const code = made.body?.error?.code;
      if (made.status === 422 && code === "amount_out_of_limits") return `qr ${cmd.cents} refused: ${code}`;
      if (made.status !== 201) run.fail(`qr order ${cmd.cents}`, `unexpected ${made.status} ${made.text.slice(0, 300)}`);
      const o = made.body.order;
      run.payments.push({ id: o.transactionId, amountLocal: o.amountLocal, currencyLocal: o.currencyLocal });
      if (o.amountLocal !== cmd.cents / 100) run.fail(`qr order ${cmd.cents}`, `asked ${cmd.cents / 100} BRL, the code asks ${o.amountLocal}`);
      if (cmd.then === "none") return `${o.id} pending`;
      const r = cmd.then === "cancel" ? await run.call(`/qr/orders/${o.id}/cancel`, { body: {} }) : await run.call(`/qr/orders/${o.id}/simulate`, { body: { action: cmd.then } });
      const okCode = r.status === 409 && r.body?.error?.code === "qr_order_not_pending";
      if (r.status !== 200 && !okCode) run.fail(`qr ${cmd.then} ${o.id}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
      const after = (await run.call(`/qr/orders/${o.id}`)).body.order.status;
      const tx = (await run.call(`/payments/${o.transactionId}`)).body.status;
      const agrees = { pending: ["pending"], paid: ["completed", "refunded", "chargeback"], expired: ["expired", "failed"], cancelled: ["expired"] }[after as "pending"] ?? [];
      if (!agrees.includes(tx)) run.fail(`qr ${cmd.then} ${o.id}`, `order ${after} but its transaction ${tx}`);
      return `${o.id} ${cmd.then} -> ${after} (${tx})`;
    }
    case "withdraw": {
      // Settled first (as the settle step does), so there is something to withdraw.
      await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: run.merchantId });
      const available = (await run.call("/me/balance")).body.balance.available as number;
      const amountUsd = Math.floor(Math.max(0, available) * cmd.percent) / 100;
      if (amountUsd <= 0) return "skipped (nothing available)";
      const r = await run.call("/me/withdrawals", { body: { amountUsd, destination: { asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } } });
      if (r.status === 422 && r.body?.error?.code === "balance_insufficient") return `${amountUsd} refused: balance_insufficient`;
      if (r.status !== 200) run.fail(`withdraw ${amountUsd}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
      const w = r.body.withdrawal;
      if (cmd.outcome === "none") return `${w.id} ${amountUsd} processing`;
      const end = await run.call(`/me/withdrawals/${w.id}/simulate`, { body: { action: cmd.outcome } });
      if (end.status !== 200) run.fail(`withdrawal ${cmd.outcome} ${w.id}`, `unexpected ${end.status} ${end.text.slice(0, 300)}`);
      return `${w.id} ${amountUsd} ${end.body.withdrawal.status}`;
    }
    case "topup": {
      const t = await run.call("/me/payout/topups", { body: { asset: "USDC", network: "POLYGON" } });
      if (t.status !== 201) run.fail("topup", `unexpected ${t.status} ${t.text.slice(0, 300)}`);
      const before = (await run.call("/me/payout/balance")).body.balances.find((b: { currency: string }) => b.currency === "USD").available as number;
      // Reported more than once: credited once.
      for (let i = 0; i < cmd.times; i++) {
        const r = await run.call(`/me/payout/topups/${t.body.topup.id}/simulate`, { body: { amount: cmd.cents / 100 } });
        if (r.status !== 200) run.fail("topup simulate", `unexpected ${r.status} ${r.text.slice(0, 300)}`);
      }
      const after = (await run.call("/me/payout/balance")).body.balances.find((b: { currency: string }) => b.currency === "USD").available as number;
      const credited = cmd.cents >= 100 ? cmd.cents / 100 : 0;
      if (Math.round((after - before) * 100) !== Math.round(credited * 100)) run.fail(`topup ${cmd.cents} x${cmd.times}`, `payout USD moved ${after - before}, expected ${credited}`);
      return `${t.body.topup.id} ${cmd.cents / 100} x${cmd.times} -> +${credited}`;
    }
    case "dispute": {
      const open = await openChargebacks(run.merchantId);
      const claimId = open[cmd.pick % Math.max(1, open.length)];
      if (!claimId) return "skipped (no open chargeback)";
      if (cmd.answer === "evidenceThenWon") {
        const form = new FormData();
        form.append("text", "Delivered and signed for.");
        const up = await fetch(`${API_URL}/api/v1/claims/${claimId}/evidence`, { method: "POST", headers: { authorization: `Bearer ${run.key}` }, body: form });
        if (up.status !== 201 && up.status !== 409) run.fail(`evidence ${claimId}`, `unexpected ${up.status} ${await up.text()}`);
      }
      const r = cmd.answer === "accept" ? await run.call(`/claims/${claimId}/accept`, { body: {} }) : await run.call(`/claims/${claimId}/simulate`, { body: { action: "won" } });
      const code = r.body?.error?.code;
      const expected = r.status === 200 || code === "claim_already_resolved" || (cmd.answer === "wonWithoutEvidence" && code === "missing_required_fields");
      if (!expected) run.fail(`dispute ${cmd.answer} ${claimId}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
      return `${claimId} ${cmd.answer} ${r.status === 200 ? r.body.claim.status : code}`;
    }
    case "resolveChargeback": {
      const open = await openChargebacks(run.merchantId);
      const claimId = open[cmd.pick % Math.max(1, open.length)];
      if (!claimId) return "skipped (no open chargeback)";
      try {
        const c = await resolveDispute(claimId, cmd.outcome);
        return `${claimId} ${c.status}`;
      } catch (err) {
        // Only this test resolves chargebacks, but a claim found open may not be open any more.
        if (err instanceof AppError && err.code === "claim_already_resolved") return `${claimId} already resolved`;
        throw err;
      }
    }
  }
}
