// How a simulated provider (scripts/psp/simulator.ts) answers: JSON, and the ways a real network
// fails, shared by every operation. A failed request (timeout, error, garbage) made nothing; a
// lost answer (succeed_then_timeout, succeed_then_error) comes after the operation was made.
import type http from "node:http";
import type { Rule } from "./behaviour.ts";

export function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  let data = "";
  for await (const chunk of req) data += chunk;
  return data;
}

/** Answers a failed request for `mode` (never, 503, an HTML page); false when the mode is no failure. */
export function failedRequest(res: http.ServerResponse, mode: Rule["mode"], hanging: Set<http.ServerResponse>): boolean {
  if (mode === "timeout") return (hanging.add(res), true);
  if (mode === "error") return (send(res, 503, { error: "upstream maintenance" }), true);
  if (mode === "garbage") return (res.writeHead(200, { "content-type": "text/html" }), res.end("<html>502 Bad Gateway</html>"), true);
  return false;
}

/** Loses the answer of an operation made, for `mode` (never, or 503); false when the mode loses none. */
export function lostAnswer(res: http.ServerResponse, mode: Rule["mode"], hanging: Set<http.ServerResponse>): boolean {
  if (mode === "succeed_then_timeout") return (hanging.add(res), true);
  if (mode === "succeed_then_error") return (send(res, 503, { error: "upstream maintenance" }), true);
  return false;
}
