// `npm run providers:check`: every configured provider's cheapest authenticated read (no money
// moves), one line each: ok, credentials refused, or unreachable. Exit 0 only when all are ok.
// Reads the same environment the server does (PROVIDER_<CODE>_*); prints no secret.
import { connectorFor } from "@/lib/providers/connectors";
import { providerConfigErrors, providerConfigs, providerName } from "@/lib/providers/registry";

async function main(): Promise<number> {
  const errors = providerConfigErrors();
  for (const e of errors) console.log(`configuration: ${e}`);
  const configured = [...providerConfigs().values()];
  if (configured.length === 0) {
    console.log("no provider is configured (set PROVIDER_STRIPE_SECRET_KEY, PROVIDER_MERCADOPAGO_ACCESS_TOKEN or PROVIDER_EBANX_INTEGRATION_KEY; see docs/operators/providers.md)");
    return 1;
  }
  let ok = errors.length === 0;
  const width = Math.max(...configured.map((c) => c.code.length));
  for (const cfg of configured) {
    const started = Date.now();
    const r = await connectorFor(cfg.code).checkCredentials().catch((err: unknown) => ({ kind: "unreachable" as const, detail: err instanceof Error ? err.message : String(err) }));
    const word = r.kind === "ok" ? "ok" : r.kind === "credentials_refused" ? "credentials refused" : "unreachable";
    const detail = r.kind === "ok" ? "" : ` (${r.detail})`;
    console.log(`${cfg.code.padEnd(width)}  ${word}${detail}  ${providerName(cfg.code)} at ${cfg.baseUrl}, ${Date.now() - started} ms`);
    ok &&= r.kind === "ok";
  }
  return ok ? 0 : 1;
}

main().then((code) => process.exit(code));
