// The one wrapper of the dashboard's server actions, as route() is the API's
// (lib/platform/http/handler.ts). Every action goes through it, in this order:
// the gate with the action's permission -> its arguments -> input validation -> the shop (where
// the use case needs one) -> at most once per form key -> the use case -> `{ ok, data | error }`
// (runAction: an AppError keeps its code, message and param; anything else is a logged
// internal_error that leaks nothing).
import type { z } from "zod";
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import type { Permission } from "@/lib/platform/auth/policy";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { ResourceRef } from "@/lib/platform/idempotency/keys";
import { runAction, type ActionResult } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { currentDashboard, dashboardOrThrow, withShop, type Dashboard } from "@/server/dashboard";

/**
 * Who may call: a permission of the policy table (the same one the matching API endpoint
 * declares); "signedIn", any signed-in user, even one the gate holds at two-factor enrolment
 * (what such a user may still do: enrol, change their own password); "public", no session at
 * all (the arguments carry the credential, as an invite's token does).
 */
export type ActionGate = Permission | "signedIn" | "public";

/**
 * What an action's arguments come to: `input`, the form's values as an API body would carry
 * them (judged by the spec's `input`); `formKey`, the form instance's once-key; anything else
 * (a record's id) is passed through to the use case and is part of what a repeated key must match.
 */
type Call = { input?: unknown; formKey?: string; [passed: string]: unknown };

/** A zod schema (the endpoint's own), or a function that returns the value or throws an AppError. */
type Judge = z.ZodType | ((raw: never) => unknown);
type Judged<J, Raw> = J extends z.ZodType ? z.output<J> : J extends (raw: never) => infer O ? O : Raw;

type Session<G> = G extends "public" ? { d: null; ctx: null } : { d: Dashboard; ctx: AuthContext };

/** What the use case is given: the session, the (shop's) context, the judged input and the pass-through values. */
export type Given<G, C extends Call, J> = Omit<C, "input" | "formKey"> & Session<G> & { input: Judged<J, C["input"]> };

export type ActionSpec<G, A extends unknown[], C extends Call, J, T> = {
  /** The action's own signature (what the components call) and what its arguments come to. */
  args: (...args: A) => C;
  /** Judges `input`; a schema's refusal is the API's (`missing_field`, `invalid_request` with the `param`). */
  input?: J;
  /** What a schema's messages call the input: "query" for a GET endpoint's query schema. */
  inputIn?: "body" | "query";
  /** The context narrowed to the merchant's first active shop (a use case that acts for a shop). */
  shop?: boolean;
  /** The action's name: it runs at most once per form key (onceForForm; money and records move once). */
  once?: string;
  /** With `once`: re-renders the answer from what the first run bound (bindIdempotency) when its stored answer is lost. */
  replay?: (given: Given<G, C, J>, ref: ResourceRef) => Promise<T>;
  /** With `once`: false for an answer holding a secret (never stored, every repeat re-rendered by `replay`). */
  storeAnswer?: boolean;
  /** Every refusal is shown at this one field, naming the place inside it (a box holding a whole JSON body). */
  errorsAt?: string;
};

export function dashboardAction<G extends ActionGate, A extends unknown[], C extends Call, J extends Judge | undefined = undefined, T = unknown>(
  gate: G,
  spec: ActionSpec<G, A, C, J, T>,
  useCase: (given: Given<G, C, J>) => Promise<T>,
): (...args: A) => Promise<ActionResult<T>> {
  return async (...args) =>
    runAction(async () => {
      const d = await session(gate);
      const run = async () => {
        const { input: raw, formKey, ...passed } = spec.args(...args);
        const input = judge(spec.input, raw, spec.inputIn ?? "body");
        const ctx = d && (spec.shop ? await withShop(d) : d.ctx);
        const given = { ...passed, d, ctx, input } as unknown as Given<G, C, J>;
        if (!spec.once) return useCase(given);
        if (!d) throw new Error(`${spec.once}: an action without a session cannot run once per form`);
        const replay = spec.replay && ((ref: ResourceRef) => spec.replay!(given, ref));
        return onceForForm(d, spec.once, formKey, { ...passed, input }, () => useCase(given), replay, { storeAnswer: spec.storeAnswer });
      };
      return spec.errorsAt ? atOneField(spec.errorsAt, run) : run();
    });
}

/** A value of a few (a simulated outcome, the environment), refused in the form's own words. */
export function oneOf<const V extends readonly string[]>(param: string, values: V, message: string): (raw: unknown) => V[number] {
  return (raw) => {
    if (!values.includes(raw as string)) throw new AppError("invalid_request", message, { param });
    return raw as V[number];
  };
}

async function session(gate: ActionGate): Promise<Dashboard | null> {
  if (gate === "public") return null;
  if (gate !== "signedIn") return dashboardOrThrow(gate);
  // Not the gate's refusal of a user held at enrolment: signing in again is all that is left.
  const d = await currentDashboard();
  if (!d) throw new AppError("missing_credentials", "Your session has ended. Sign in again.");
  return d;
}

function judge(judge: Judge | undefined, raw: unknown, where: "body" | "query"): unknown {
  if (judge === undefined) return raw;
  return typeof judge === "function" ? judge(raw as never) : parseWith(judge, raw, where);
}

async function atOneField<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.param && err.param !== field) throw new AppError(err.code, `${err.message} (at ${err.param})`, { param: field });
    throw err;
  }
}
