// GET /pay/mandate/[token]: a recurring PIX mandate's authorization page (its authorizationUrl), a
// buyer page rendered by components/checkout/pages/mandate.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { mandatePage } from "@/components/checkout/pages/mandate";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(mandatePage);
