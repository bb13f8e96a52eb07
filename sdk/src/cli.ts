#!/usr/bin/env node
// The SDK's command line: `npx @latam-payments/sdk listen --forward-to http://localhost:3000/hooks`.
//   --api-key sk_test_…      or LATAM_PAYMENTS_SECRET_KEY (sandbox keys only)
//   --base-url <api root>    or LATAM_PAYMENTS_API_URL (default https://payments.example.com/api/v1)
//   --events a,b             only these event types
//   --print-secret           print the signing secret to verify with locally (alone: print it and exit)
import { listen, ListenError } from "./listen.ts";

const USAGE = `usage: latam-payments listen --forward-to <url> [--events type,type] [--print-secret] [--api-key sk_test_…] [--base-url <api root>]
       latam-payments listen --print-secret      prints the signing secret of the listen inbox (the same every session)`;

function parse(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) continue;
    const [name, inline] = a.slice(2).split("=", 2) as [string, string | undefined];
    if (inline !== undefined) out[name] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) out[name] = argv[++i]!;
    else out[name] = true;
  }
  return out;
}

const str = (v: string | true | undefined) => (typeof v === "string" ? v : undefined);
const time = () => new Date().toISOString().replace("T", " ").slice(0, 19);

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== "listen") {
    console.error(USAGE);
    return command === undefined || command === "--help" || command === "help" ? 0 : 2;
  }
  const args = parse(rest);
  const secretKey = str(args["api-key"]) ?? process.env.LATAM_PAYMENTS_SECRET_KEY;
  const baseUrl = str(args["base-url"]) ?? process.env.LATAM_PAYMENTS_API_URL ?? "https://payments.example.com/api/v1";
  const forwardTo = str(args["forward-to"]);
  const printSecret = args["print-secret"] === true;
  const events = str(args.events)?.split(",").map((e) => e.trim()).filter(Boolean);
  if (!secretKey) {
    console.error("give a sandbox secret key: --api-key sk_test_… or LATAM_PAYMENTS_SECRET_KEY\n" + USAGE);
    return 2;
  }
  if (!forwardTo && !printSecret) {
    console.error(USAGE);
    return 2;
  }
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  try {
    await listen({
      baseUrl,
      secretKey,
      forwardTo: forwardTo ?? "http://localhost/",
      events,
      revealSecret: printSecret,
      signal: stop.signal,
      onReady: (info) => {
        if (!forwardTo) {
          // Alone, --print-secret prints the secret and nothing else: `export WEBHOOK_SECRET=$(… --print-secret)`.
          console.log(info.secret ?? "");
          stop.abort();
          return;
        }
        if (info.secret) console.log(`Your webhook signing secret is ${info.secret}`);
        console.log(`Ready! Forwarding ${events?.length ? events.join(", ") : "every event"} to ${forwardTo} (listen inbox ${info.subscriptionId}). Ctrl-C to stop.`);
      },
      onForward: (r) => {
        const answer = r.status === null ? `failed: ${r.body}` : `${r.status}`;
        console.log(`${time()}  --> ${r.event} [${r.eventId}]  <-- ${answer} (${r.durationMs} ms) ${r.deliveryId}${r.reported ? "" : " (not recorded)"}`);
      },
      onNotice: (m) => console.error(`${time()}  ${m}`),
    });
    return 0;
  } catch (err) {
    console.error(err instanceof ListenError ? err.message : String(err));
    return 1;
  }
}

// Exit at once: a kept-alive connection must not hold `$(… --print-secret)` for seconds.
main().then((code) => process.exit(code));
