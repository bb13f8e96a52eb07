// GET /c/[txId]/result: a buyer page, rendered by components/checkout/pages/result.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { resultPage } from "@/components/checkout/pages/result";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(resultPage);
