import { methods, route } from "@/lib/platform/http/handler";
import { getEstablishmentEndpoint } from "@/lib/qr/schema";
import { getEstablishment } from "@/lib/qr/establishments";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getEstablishmentEndpoint, async ({ auth }) => getEstablishment(auth)) });
