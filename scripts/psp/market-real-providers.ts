// The market (./market.ts) as the real providers' simulators answer it (./mercadopago/,
// ./ebanx/): which charges it decides (a bench buyer's, m<i>@bench.example, while a scenario
// runs) and, for a decline, the provider's own code. The codes are chosen through the provider's
// decline rows (prisma/migrations/20261202110200_mercadopago_decline_codes, …110300_ebanx_…) so
// that the payment fares as at the common simulators: the cascade ends there, and routing's
// window counts the refusal the same way (lib/routing/window.ts: a buyer's decline is ignored,
// the issuer's generic do_not_honor counts against the provider). Where the provider publishes
// no code for the market's reason, the row names another unified code of the same kind; `mapsTo`
// says which (lib/routing/market.test.ts checks each against the SQL).
import { decide, paymentIndexOf, type MarketDecision, type Scenario } from "./market.ts";

export type MarketReason = NonNullable<MarketDecision["reason"]>;
export type MarketProviderCode = "mercadopago" | "ebanx";
/** `code`: what the simulator answers (MP: status_detail; EBANX: status_code); `mapsTo`: the unified code its decline row gives. */
export type MarketDecline = { code: string; message: string; mapsTo: string };

export const MARKET_DECLINES: Record<MarketProviderCode, Record<MarketReason, MarketDecline>> = {
  mercadopago: {
    insufficient_funds: { code: "cc_rejected_insufficient_amount", message: "insufficient amount", mapsTo: "insufficient_funds" },
    // MP's own "no reason given" (cc_rejected_other_reason) is also do_not_honor, but soft: the
    // cascade would go on to the next provider, where the common simulators' do_not_honor stops it.
    do_not_honor: { code: "cc_rejected_bad_filled_other", message: "rejected by the issuer", mapsTo: "do_not_honor" },
    suspected_fraud: { code: "cc_rejected_high_risk", message: "rejected by fraud prevention", mapsTo: "suspected_fraud" },
    // No MP row maps to invalid_document (its identification errors are 400 causes, unmapped and
    // soft); the blacklist refusal is a buyer's decline that stops too.
    invalid_document: { code: "cc_rejected_blacklist", message: "rejected: payer not accepted", mapsTo: "suspected_fraud" },
  },
  ebanx: {
    // EBANX publishes no insufficient-funds or fraud refusal among its create-call codes; its
    // document refusals are the buyer's declines that stop (BP-DR-39: name and document mismatch).
    insufficient_funds: { code: "BP-DR-23", message: "Field payment.document is invalid", mapsTo: "invalid_document" },
    // The one non-buyer refusal that ends the cascade (retry_same_later) and counts against EBANX.
    do_not_honor: { code: "BP-DR-40", message: "You have reached the payment limit", mapsTo: "limit_exceeded" },
    suspected_fraud: { code: "BP-DR-39", message: "Name, document and birth date do not match", mapsTo: "invalid_document" },
    invalid_document: { code: "BP-DR-23", message: "Field payment.document is invalid", mapsTo: "invalid_document" },
  },
};

/** A simulator's market knob: POST /_control/market {scenario} sets it, reset clears it. */
export function createMarket(code: MarketProviderCode) {
  let scenario: Scenario | null = null;
  return {
    get scenario() {
      return scenario;
    },
    set(s: Scenario | null) {
      scenario = s;
    },
    /** The market's answer for a new charge of this buyer; null: not a bench buyer or no scenario (the rules answer). */
    decisionFor(email: string | undefined): MarketDecision | null {
      if (scenario === null) return null;
      const i = paymentIndexOf(email);
      return i === null ? null : decide(scenario, code, i);
    },
  };
}
export type Market = ReturnType<typeof createMarket>;

/** The provider's decline code for a market decline (do_not_honor when the decision names no reason). */
export const marketDecline = (code: MarketProviderCode, d: MarketDecision): MarketDecline => MARKET_DECLINES[code][d.reason ?? "do_not_honor"];
