// Auth.js' own endpoints (session, csrf, sign-out form posts; its POSTs check its CSRF token).
// Its POSTs are unauthenticated form posts: bounded like the buyer pages' (lib/platform/http/body.ts).
import { NextRequest } from "next/server";
import { handlers } from "@/auth";
import { NOTICE_BODY_LIMIT, boundedRead, readBodyBytes } from "@/lib/platform/http/body";

export const { GET } = handlers;

export async function POST(req: NextRequest): Promise<Response> {
  const read = await boundedRead(readBodyBytes(req, NOTICE_BODY_LIMIT));
  if (read.refused) return read.refused;
  return handlers.POST(new NextRequest(req.url, { method: "POST", headers: req.headers, body: read.value }));
}
