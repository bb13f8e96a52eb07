import { methods, route } from "@/lib/platform/http/handler";
import { sendTestEventEndpoint } from "@/lib/webhooks/schema";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(sendTestEventEndpoint, async ({ auth, params }) => sendTestEvent(auth, params.id)) });
