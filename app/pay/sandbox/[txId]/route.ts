// GET /pay/sandbox/[txId]: a buyer page, rendered by components/checkout/pages/sandbox.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { sandboxPage } from "@/components/checkout/pages/sandbox";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(sandboxPage);
