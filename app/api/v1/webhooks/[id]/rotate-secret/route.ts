import { methods, route } from "@/lib/platform/http/handler";
import { rotateSecretEndpoint } from "@/lib/webhooks/schema";
import { rotateSecret } from "@/lib/webhooks/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(rotateSecretEndpoint, async ({ auth, params }) => rotateSecret(auth, params.id)) });
