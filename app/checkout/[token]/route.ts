// GET /checkout/[token]: a buyer page, rendered by components/checkout/pages/checkout.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { checkoutPage } from "@/components/checkout/pages/checkout";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(checkoutPage);
