// GET /qr/[token]: a buyer page, rendered by components/checkout/pages/qr.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { qrPage } from "@/components/checkout/pages/qr";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(qrPage);
