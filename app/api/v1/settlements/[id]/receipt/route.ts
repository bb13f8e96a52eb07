import { methods, route } from "@/lib/platform/http/handler";
import { settlementReceiptEndpoint } from "@/lib/settlements/schema";
import { settlementReceipt } from "@/lib/settlements/list-settlements";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(settlementReceiptEndpoint, async ({ auth, params }) => {
    const { pdf, filename } = await settlementReceipt(auth, params.id);
    return new Response(new Uint8Array(pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
  }),
});
