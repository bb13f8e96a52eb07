import { methods, route } from "@/lib/platform/http/handler";
import { getEventEndpoint } from "@/lib/events/schema";
import { getEvent } from "@/lib/events/list-events";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getEventEndpoint, async ({ auth, params }) => getEvent(auth, params.id) as never) });
