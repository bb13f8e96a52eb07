import { methods, route } from "@/lib/platform/http/handler";
import { listenWebhooksEndpoint } from "@/lib/webhooks/listen-schema";
import { openListenStream } from "@/lib/webhooks/listen-stream";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listenWebhooksEndpoint, async ({ auth, query, request }) => {
    const stream = await openListenStream(auth, query, request.signal);
    return new Response(stream, {
      status: 200,
      // no-transform and X-Accel-Buffering: no proxy or compression may hold events back.
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff" },
    });
  }),
});
