// Simulated upstream PSPs for development and tests: each is a separate HTTP service on its own
// port with its own secret, rails, limits and hosted page, speaking the JSON protocol of
// lib/providers/http-psp.ts. They behave like real providers: accept (with a hosted page or
// only instructions), decline, time out, fail with 5xx, answer garbage, accept without a page,
// and notify late, twice or never. A control API on each (loopback only) switches behaviours:
//   POST /_control/behaviour {mode, forEmail?, times?}   mode: accept|accept_instructions|decline|timeout|error|garbage|no_page
//   POST /_control/charges/{id}/{paid|failed|expired|refunded} {notify?: true, duplicate?: false, delayMs?: 0}
//   POST /_control/charges/{id}/med {amount?, duplicate?}  a PIX MED notice (status med, medAmount) for a paid charge
//   GET  /_control/charges   GET /_control/behaviour (rules not yet used up)   POST /_control/reset
//   GET  /_control/charges                                POST /_control/reset
//   POST /_control/behaviour {mode: "decline", reason}    reason: a unified decline reason
//        (insufficient_funds, suspected_fraud, limit_exceeded, rate_limited, unmapped, …) answered
//        in this provider's own words (DECLINE_ANSWERS: codes or a message)
//   POST /_control/market {scenario}                      a market scenario (./market.ts) answers
//        bench buyers' charges (approval drifting over the run, outage, latency); {scenario: null} ends it
// Deposit accounts and payouts (lib/providers/http-accounts.ts): POST /clabes issues a CLABE
// (modes as above, plus bad_clabe: a wrong check digit, duplicate_clabe: the last one again;
// no_page: an answer without a CLABE; rules match on beneficiary.email); POST /payouts takes a
// disbursement (decline: 422 rejected; rules match on recipient.email). Both de-duplicate on
// `reference`: a CLABE already issued for a reference is answered again whatever the mode, and
// succeed_then_timeout/succeed_then_error issue it and then lose the answer. Every POST /clabes
// is counted: GET /_control/clabes?endUserRef=X -> {requests, references, clabes} (how many
// times we asked, under which references, which CLABEs were issued). Control, each answering the
// HTTP statuses of the notices it sent:
//   POST /_control/deposits {clabe, amount, currency?, trackingKey?, payerName?, payerBank?, payerDocument?, reference?, status?, duplicate?}
//   POST /_control/payouts/{id|reference}/{PAID|REJECTED|REFUNDED} {reason?, duplicate?}
//   GET  /_control/beneficiaries/{account}   -> {paid, amount}: how many payouts really reached
//        that account (recipient.account), so a test can prove a beneficiary was paid once.
//
// At most once (decisions.md "Money leaves at most once"): charges, refunds and payouts
// de-duplicate on our `reference` (the same reference gives the same answer and never a second
// charge, refund or payout), and each has a status-by-reference endpoint:
//   GET /charges/by-reference/{reference}    -> {id, reference, status}        (404: never received)
//   GET /payouts/{reference}                 -> {id, reference, status: processing|PAID|REJECTED|REFUNDED}
//   GET /refunds/{reference}                 -> {id, reference, chargeId, amount, status: refunded}
// Two modes make the answer lie about an operation that DID happen, as real networks do:
//   succeed_then_timeout: the charge/refund/payout is made (a payout is PAID at once), then the
//                         answer never comes (the caller times out);
//   succeed_then_error:   made, then answered 503.
// A test selects a mode per request like every other: POST /_control/behaviour {mode, forEmail,
// times} where forEmail matches the payout's recipient.email, the charge's buyer.email, or, for
// a refund, the buyer email of the refunded charge. timeout/error/garbage on a refund or payout
// do NOT make it (a failed request); decline refuses it explicitly (422 {status: rejected}).
//
// Status lookups (GET /charges/{id}, /charges/by-reference/{ref}, /payouts/{ref}, /refunds/{ref},
// /clabes/{ref}) answer a bare 404, as a proxy's error page does, for a rule
//   POST /_control/behaviour {mode: "bare_404", forReference?, forEmail?, times?}
// (forReference: the id or reference looked up; forEmail: the charge's buyer). Other requests
// never take a bare_404 rule. A voucher paid after it expired (the expiry notice first, then the
// payment): POST /_control/charges/{id}/paid {expiresFirst: true, notify?}. GET /clabes/{reference}
// -> {id, reference, clabe, bank?} (404 {error}: never issued). Benchmarks seed charges in bulk:
//   POST /_control/charges/bulk {charges: [{reference, amount, currency, method, notifyUrl}]} -> {ids}
//
// Notices are signed with the provider's NOTICE secret (not the one our calls carry as Bearer):
//   X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
//
// Recurring PIX (pagosur): Brazil's API Pix endpoints for Pix Automático and the payer's control,
// in ./pix-automatico.ts.
//
// Its parts, beside it: the providers and their rails (providers.ts), what each holds (store.ts),
// its failure knobs (behaviour.ts, decline-answers.ts, answers.ts), its notices (notices.ts), and
// its handlers: the control API (control-api.ts), the hosted page (hosted-page.ts), payins
// (payins.ts: charges and refunds), deposit accounts (clabes.ts) and payouts (payouts.ts).
import http from "node:http";
import type { SimulatedProvider } from "./providers.ts";
import { createContext } from "./context.ts";
import { send } from "./answers.ts";
import { safeEqual } from "../../lib/platform/crypto/hash.ts";
import { serveControl } from "./control-api.ts";
import { serveHostedPage } from "./hosted-page.ts";
import { servePayins } from "./payins.ts";
import { serveClabes } from "./clabes.ts";
import { servePayouts } from "./payouts.ts";
import { servePixAutomatico, servePixControl } from "./pix-automatico.ts";

/** Starts one simulated provider on its port; `stop` drops the requests it never answered. */
export function startSimulatedProvider(p: SimulatedProvider, log: (s: string) => void = () => {}) {
  const sim = createContext(p, log);
  const { base } = sim;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const parts = url.pathname.split("/").filter(Boolean);
    try {
      // --- control API
      if (parts[0] === "_control") return (await servePixControl(sim, req, res, parts)) || (await serveControl(sim, req, res, parts, url));
      // --- buyer-facing hosted page
      if (parts[0] === "checkout" && parts[1]) return serveHostedPage(sim, req, res, parts[1]);
      // --- merchant-facing API
      if (!safeEqual(req.headers.authorization ?? "", `Bearer ${p.secret}`)) return send(res, 401, { error: "unauthorized" });
      if ((await servePixAutomatico(sim, req, res, parts)) || (await servePayins(sim, req, res, parts)) || (await serveClabes(sim, req, res, parts)) || (await servePayouts(sim, req, res, parts))) return;
      return send(res, 404, { error: "not found" });
    } catch (err) {
      return send(res, 400, { error: (err as Error).message });
    }
  });
  return new Promise<{ url: string; stop: () => Promise<void> }>((resolve) =>
    server.listen(p.port, "127.0.0.1", () =>
      resolve({
        url: base,
        stop: () =>
          new Promise<void>((r) => {
            for (const h of sim.store.hanging) h.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}
