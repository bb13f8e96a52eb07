// The Inngest client (JOBS_DRIVER=inngest). Sending an event must never block or fail an API
// answer: every send goes through a fetch bounded to 1 s, after commit, and a lost event is
// caught by the next cron sweep of the same job.
import { Inngest } from "inngest";

const boundedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(1_000) });

export const inngest = new Inngest({
  id: "latam-payments",
  eventKey: process.env.INNGEST_EVENT_KEY,
  fetch: boundedFetch,
});
