// The Inngest job driver (JOBS_DRIVER=inngest): wake signals become Inngest events. Attached at
// server start; the functions themselves are generated from the registry (inngest/functions).
import { onWake } from "@/lib/platform/outbox/wake";
import { log } from "@/lib/platform/log";
import { inngest } from "@/inngest/client";

export function connectInngestWake(): () => void {
  return onWake((name, data) => {
    void inngest.send({ name, data }).catch((err) => log.warn({ event: name, err: err instanceof Error ? err.message : String(err) }, "could not wake a job; the sweep will catch it"));
  });
}
