// Inngest's serve endpoint, active only with JOBS_DRIVER=inngest (otherwise the in-process
// ticker runs the same jobs and this path is a JSON 404).
import { serve } from "inngest/next";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { errorResponse } from "@/lib/platform/http/handler";
import { newId } from "@/lib/platform/ids";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

const served = serve({ client: inngest, functions });
const off = async () => errorResponse(new AppError("route_not_found", "Inngest is not the job driver here (JOBS_DRIVER=local)."), newId("request")).response;
const pick = <K extends "GET" | "POST" | "PUT">(k: K) => (config().JOBS_DRIVER === "inngest" ? served[k] : off);

export const GET = (...a: Parameters<typeof served.GET>) => pick("GET")(...(a as [never, never]));
export const POST = (...a: Parameters<typeof served.POST>) => pick("POST")(...(a as [never, never]));
export const PUT = (...a: Parameters<typeof served.PUT>) => pick("PUT")(...(a as [never, never]));
