// Auth.js' own endpoints (session, csrf, sign-out form posts; its POSTs check its CSRF token).
// Its POSTs are unauthenticated form posts: bounded like the buyer pages' (lib/http/body.ts).
import { NextRequest } from "next/server";
import { handlers } from "@/auth";
import { AppError } from "@/lib/errors";
import { NOTICE_BODY_LIMIT, formTooLarge, readBodyBytes } from "@/lib/http/body";

export const { GET } = handlers;

export async function POST(req: NextRequest): Promise<Response> {
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readBodyBytes(req, NOTICE_BODY_LIMIT);
  } catch (err) {
    if (err instanceof AppError && err.code === "payload_too_large") return formTooLarge();
    throw err;
  }
  return handlers.POST(new NextRequest(req.url, { method: "POST", headers: req.headers, body }));
}
