// Form target of the sandbox page's test buttons: applies the outcome, then back to the page.
import { config } from "@/lib/config";
import { applySimulation } from "@/lib/payments/simulate-payment";
import { AppError } from "@/lib/errors";
import { crossSiteRefused, isCrossSite } from "@/lib/http/cross-site";
import { formTooLarge, readFormData } from "@/lib/http/body";

export async function POST(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  if (isCrossSite(req)) return crossSiteRefused();
  let form: FormData | null;
  try {
    form = await readFormData(req);
  } catch (err) {
    if (err instanceof AppError && err.code === "payload_too_large") return formTooLarge();
    throw err;
  }
  const action = form?.get("action");
  if (action !== "paid" && action !== "failed") return new Response("Unknown action.", { status: 400 });
  try {
    await applySimulation(txId, action, false);
  } catch (err) {
    if (err instanceof AppError && err.code === "transaction_not_found") return new Response("Unknown payment.", { status: 404 });
    throw err;
  }
  const locale = new URL(req.url).searchParams.get("locale");
  const back = new URL(`${config().APP_URL}/pay/sandbox/${txId}`);
  if (locale) back.searchParams.set("locale", locale);
  return new Response(null, { status: 303, headers: { location: back.toString() } });
}
