import { methods, route } from "@/lib/platform/http/handler";
import { listInboxEndpoint } from "@/lib/webhooks/schema";
import { listInbox } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listInboxEndpoint, async ({ auth, params, query }) => listInbox(auth, params.id, query)) });
