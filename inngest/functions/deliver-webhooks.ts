import { RetryAfterError } from "inngest";
import { inngest, EVENTS } from "@/inngest/client";
import { fanOutEvents } from "@/lib/jobs/fan-out-events";
import { deliverDueWebhooks } from "@/lib/jobs/deliver-webhooks";

// Fan out new events, then deliver what is due. When a batch was full there is more work: ask
// Inngest to run again shortly instead of waiting for the next minute's sweep.
export const deliverWebhooksFn = inngest.createFunction(
  { id: "deliver-webhooks", retries: 3, concurrency: 4, triggers: [{ event: EVENTS.webhooksDue }, { cron: "* * * * *" }] },
  async ({ step }) => {
    const fannedOut = await step.run("fan-out-events", () => fanOutEvents());
    const delivered = await step.run("deliver-due", () => deliverDueWebhooks({ limit: 200 }));
    if (delivered.attempted >= 200) throw new RetryAfterError("more deliveries are due", "1s");
    return { fannedOut, ...delivered };
  },
);
