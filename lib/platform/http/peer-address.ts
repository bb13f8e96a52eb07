// Route handlers never see the socket, and Next fills X-Forwarded-For with the socket's peer only
// when the client sent none, so a client could otherwise name itself. Installed once at server
// start (instrumentation): every incoming request gets the peer address in PEER_HEADER,
// overwriting whatever the client sent under that name. lib/platform/http/client-ip.ts reads it.
import http from "node:http";
import { PEER_HEADER } from "@/lib/platform/http/client-ip";

const INSTALLED = Symbol.for("latam-payments.peer-address");

export function stampPeerAddresses(): void {
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean; [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  };
}
