import { methods, route } from "@/lib/http/handler";
import { fundSandboxEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(fundSandboxEndpoint, async ({ auth, body }) => fundSandbox(auth, body)) });
