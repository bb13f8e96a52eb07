// Form target of the sandbox page's test buttons: applies the outcome, then back to the page.
import { config } from "@/lib/config";
import { applySimulation } from "@/lib/payments/simulate-payment";
import { AppError } from "@/lib/errors";

export async function POST(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  const form = await req.formData().catch(() => null);
  const action = form?.get("action");
  if (action !== "paid" && action !== "failed") return new Response("Unknown action.", { status: 400 });
  try {
    await applySimulation(txId, action, false);
  } catch (err) {
    if (err instanceof AppError && err.code === "transaction_not_found") return new Response("Unknown payment.", { status: 404 });
    throw err;
  }
  return new Response(null, { status: 303, headers: { location: `${config().APP_URL}/pay/sandbox/${txId}` } });
}
