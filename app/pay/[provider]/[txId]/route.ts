// GET /pay/[provider]/[txId]: a buyer page, rendered by components/checkout/pages/instructions.tsx (server/buyer-page.tsx).
import { buyerRoute } from "@/server/buyer-page";
import { instructionsPage } from "@/components/checkout/pages/instructions";

export const dynamic = "force-dynamic";
export const GET = buyerRoute(instructionsPage);
