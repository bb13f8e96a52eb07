// Runs before routing, only for /api/v1 paths that carry percent-escapes. Next decodes path
// segments before our handlers run and answers a plain-text 500 on a malformed escape (e.g.
// %ff); this turns that into the contract's JSON 400.
import { NextResponse, type NextRequest } from "next/server";
import { AppError, toEnvelope } from "@/lib/errors";
import { newId } from "@/lib/ids";

export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    const requestId = newId("request");
    const err = new AppError("invalid_request", "The request path contains a malformed percent-escape.");
    return NextResponse.json(toEnvelope(err, requestId), { status: err.status, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } });
  }
}

export const config = { matcher: ["/api/v1/(.*%.*)"] };
