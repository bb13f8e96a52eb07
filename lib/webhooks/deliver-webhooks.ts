// The webhook delivery job step (lib/jobs/registry.ts "deliver-webhooks"): this process's one
// delivery pipeline (lib/webhooks/delivery-pipeline.ts), woken when new deliveries are due and
// drained on a clean stop. Due deliveries are claimed with a lease (lib/webhooks/claim-deliveries.ts),
// POSTed with the section 6 headers (lib/webhooks/attempt-delivery.ts) and retried on the
// schedule of lib/webhooks/delivery-schedule.ts. A crash mid-attempt leaves a delivery pending
// and the lease expiry retries it: at least once, never lost.
import { singleton } from "@/lib/platform/singleton";
import { JOB_SIGNALS, onWake } from "@/lib/platform/outbox/wake";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { createDeliverer, type DeliveryResult, type DeliveryRun } from "@/lib/webhooks/delivery-pipeline";

const shared = () =>
  singleton("webhook-deliverer", () => {
    const d = createDeliverer();
    onWake((signal) => signal === JOB_SIGNALS.webhooksDue && d.poke());
    onShutdown("webhook-deliveries", CLOSE_ORDER.jobs, () => d.drain());
    return d;
  });

/** The job step: delivers what is due (and what becomes due while it runs) with this process's slots. */
export function deliverDueWebhooks(opts: DeliveryRun = {}): Promise<DeliveryResult> {
  return shared().run(opts);
}
