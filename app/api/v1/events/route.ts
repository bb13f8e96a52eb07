import { methods, route } from "@/lib/platform/http/handler";
import { listEventsEndpoint } from "@/lib/events/schema";
import { listEvents } from "@/lib/events/list-events";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listEventsEndpoint, async ({ auth, query }) => listEvents(auth, query) as never) });
