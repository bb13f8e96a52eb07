// The failure knobs of one simulated provider (scripts/psp/simulator.ts): the rules a test sets
// with POST /_control/behaviour (a mode per request, optionally only for a buyer's e-mail or a
// looked-up reference, a number of times), and a market scenario (./market.ts) that answers bench
// buyers' charges while it runs. A request takes the first rule that matches it; a rule with
// `times` is used up after that many.
import type http from "node:http";
import { decide as marketDecide, paymentIndexOf, type Scenario } from "./market.ts";
import type { SimulatedProvider } from "./providers.ts";
import type { DeclineReason } from "./decline-answers.ts";

export type Mode = "accept" | "accept_instructions" | "decline" | "timeout" | "error" | "garbage" | "no_page" | "bad_clabe" | "duplicate_clabe" | "succeed_then_timeout" | "succeed_then_error";
/** With mode decline: why, in unified words; each provider answers it with its own code or message (DECLINE_ANSWERS). */
export type Rule = { mode: Mode | "bare_404"; forEmail?: string; forReference?: string; times?: number; reason?: DeclineReason };

export type Behaviour = ReturnType<typeof createBehaviour>;

export function createBehaviour(p: SimulatedProvider, log: (s: string) => void) {
  let rules: Rule[] = [];
  // A market scenario (scripts/psp/market.ts), set by POST /_control/market {scenario}: charges of
  // bench buyers (m<i>@bench.example) are answered by it; every other charge by the rules.
  let scenario: Scenario | null = null;

  function pickRule(email?: string): Rule & { mode: Mode } {
    const i = rules.findIndex((r) => r.mode !== "bare_404" && !r.forReference && (!r.forEmail || r.forEmail === email));
    if (i < 0) return { mode: "accept" };
    const rule = rules[i]!;
    if (rule.times !== undefined && --rule.times <= 0) rules.splice(i, 1);
    return rule as Rule & { mode: Mode };
  }

  return {
    /** The rules not yet used up. */
    get rules() {
      return rules;
    },
    get scenario() {
      return scenario;
    },
    addRule(rule: Rule) {
      rules.push(rule);
    },
    setScenario(s: Scenario | null) {
      scenario = s;
    },
    /** POST /_control/reset: no rules, no scenario. */
    reset() {
      scenario = null;
      rules = [];
    },
    pickRule,
    pickMode: (email?: string): Mode => pickRule(email).mode,
    /** A new charge's answer: the market's for a bench buyer while a scenario runs, else the rules'. */
    chargeRule(body: { buyer?: { email?: string } }): Rule & { delayMs?: number } {
      if (scenario === null) return pickRule(body.buyer?.email);
      const i = paymentIndexOf(body.buyer?.email);
      if (i === null) return pickRule(body.buyer?.email);
      return marketDecide(scenario, p.code, i);
    },
    /** A status lookup answered with a bare 404 (no JSON: a proxy's page) when a bare_404 rule matches it. */
    bare404(res: http.ServerResponse, keys: Array<string | undefined>, email?: string): boolean {
      const i = rules.findIndex((r) => r.mode === "bare_404" && (r.forReference ? keys.includes(r.forReference) : !r.forEmail || r.forEmail === email));
      if (i < 0) return false;
      const rule = rules[i]!;
      if (rule.times !== undefined && --rule.times <= 0) rules.splice(i, 1);
      log(`[${p.code}] lookup ${keys.filter(Boolean).join("/")} -> bare 404`);
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><body><h1>404 Not Found</h1><hr>nginx</body></html>");
      return true;
    },
  };
}
