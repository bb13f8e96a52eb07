// A dashboard action that moves money runs at most once per form instance: the form sends a key
// (one per instance, renewed after each answer) and the action goes through the API's idempotency
// mechanism (lib/platform/idempotency/run.ts), scoped to merchant + environment + user + action. A double
// submit, or a retry after a lost answer, waits for the first run and gets its answer; a crash
// after the use case committed re-renders the answer from what it created (`replay`).
import { AppError, type ErrorCode } from "@/lib/platform/errors";
import { validateIdempotencyKey } from "@/lib/platform/idempotency/keys";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { type ResourceRef } from "@/lib/platform/idempotency/replay";
import type { Environment } from "@/lib/generated/prisma/enums";
import { merchantScope } from "@/lib/platform/scope";

/** Who submits the form (the app layer's dashboard session, structurally). */
type FormOwner = { user: { id: string }; merchant: { id: string }; environment: Environment };

type StoredError = { error: { code: ErrorCode; message: string; param?: string; details?: Record<string, unknown> } };

export async function onceForForm<T>(
  d: FormOwner,
  action: string,
  formKey: string | undefined,
  input: unknown,
  run: () => Promise<T>,
  replay?: (ref: ResourceRef) => Promise<T>,
  /** `storeAnswer: false` for an answer holding a secret: never stored, every replay re-rendered by `replay`. */
  opts: { storeAnswer?: boolean } = {},
): Promise<T> {
  // Without a key (an older form), the action runs as it always did.
  if (formKey === undefined) return run();
  const scope = { ...merchantScope(d), key: validateIdempotencyKey(formKey), method: "ACTION", path: `/dashboard/${action}/${d.user.id}` };
  const result = await withIdempotency(scope, input, async () => ({ status: 200, body: await run() }), {
    replay: replay && (async (ref) => ({ status: 200, body: await replay(ref) })),
    storeAnswer: opts.storeAnswer,
    renderError: (err) => (err instanceof AppError ? { status: err.status, body: { error: { code: err.code, message: err.message, param: err.param, details: err.details } } satisfies StoredError } : null),
  });
  if (result.status >= 400) {
    // An error stored after the change committed (e.g. a provider refusal): the same refusal again.
    const { error } = result.body as StoredError;
    throw new AppError(error.code, error.message, { param: error.param, details: error.details });
  }
  return result.body as T;
}
