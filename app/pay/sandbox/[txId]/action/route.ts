// Form target of the sandbox page's test buttons: applies the outcome, then on to the payment's
// result page, the same page a payment completed from outside leads to (issue 24).
// The buyer holding the page passes the same gate as a key or a dashboard user (permission
// simulatePayment: sandbox only, answered with the API's production_key_refused).
import { config } from "@/lib/platform/config";
import { applySimulation } from "@/lib/outcomes/simulate-payment";
import { AppError } from "@/lib/platform/errors";
import { gate } from "@/lib/platform/auth/gate";
import { crossSiteRefused, isCrossSite } from "@/lib/platform/http/cross-site";
import { boundedRead, readFormData } from "@/lib/platform/http/body";

export async function POST(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  if (isCrossSite(req)) return crossSiteRefused();
  const read = await boundedRead(readFormData(req));
  if (read.refused) return read.refused;
  const form = read.value;
  const action = form?.get("action");
  if (action !== "paid" && action !== "failed") return new Response("Unknown action.", { status: 400 });
  try {
    await gate({ kind: "sandboxPayment", transactionId: txId }, "simulatePayment");
    await applySimulation(txId, action, false);
  } catch (err) {
    if (err instanceof AppError && err.code === "transaction_not_found") return new Response("Unknown payment.", { status: 404 });
    // A plain form post: the code first, so a person and a test read the same refusal.
    if (err instanceof AppError) return new Response(`${err.code}: ${err.message}`, { status: err.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    throw err;
  }
  const locale = new URL(req.url).searchParams.get("locale");
  const back = new URL(`${config().APP_URL}/c/${txId}/result`);
  if (locale) back.searchParams.set("locale", locale);
  return new Response(null, { status: 303, headers: { location: back.toString() } });
}
