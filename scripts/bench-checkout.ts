// The hosted selector page (/checkout/<token>) as a buyer's browser fetches it: its server time
// over 200 sequential requests (p50/p99, time to the last byte on loopback, after 20 warm-up
// requests) and what it transfers (gzip, as `next start` serves it): the HTML, the CSS and the
// framework's script chunks. Production build, fresh database of the local PostgreSQL.
//   npm run bench:checkout [-- --requests 200]
import { parseArgs } from "node:util";
import http from "node:http";
import { withBenchServer } from "./lib/bench-server.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "200" } } });
const requests = Number(values.requests);

/** One GET as a browser sends it; the body length is what travelled (compressed). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; body: Buffer; ms: number; encoding: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip", "accept-language": "pt-BR,pt;q=0.9", ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, bytes: body.length, body, ms: performance.now() - started, encoding: String(res.headers["content-encoding"] ?? "identity") });
        });
      })
      .on("error", reject);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  await withBenchServer({}, async (server) => {
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: "Loja Azul", tier: "premium" });
    const res = await fetch(`${server.url}/api/v1/checkout/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: 100, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" } }),
    });
    const session = (await res.json()) as { checkoutUrl: string };
    const pageUrl = session.checkoutUrl;

    for (let i = 0; i < 20; i++) await get(pageUrl);
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const r = await get(pageUrl);
      if (r.status !== 200) throw new Error(`page answered ${r.status}`);
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);

    const page = await get(pageUrl);
    const raw = await get(pageUrl, { "accept-encoding": "identity" });
    const html = raw.body.toString("utf8");
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((x) => x[1]!);
    const styles = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+\.css)"/g)].map((x) => x[1] ?? x[2]!);
    const sum = async (urls: string[]) => {
      let total = 0;
      for (const src of [...new Set(urls)]) total += (await get(new URL(src, server.url).toString())).bytes;
      return total;
    };
    const js = await sum(scripts);
    const css = await sum(styles);
    const icons = await sum([...html.matchAll(/<img[^>]*src="(\/[^"]+)"/g)].map((x) => x[1]!));

    console.log(`\nGET /checkout/<token> (selector page, pt-BR, 4 methods), ${requests} sequential requests after 20 warm-up:`);
    console.log(`  server time: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms`);
    console.log(`  transferred (${page.encoding}): HTML ${kb(page.bytes)} (${kb(raw.bytes)} uncompressed), CSS ${kb(css)}, rail icons ${kb(icons)}, JS ${kb(js)} in ${new Set(scripts).size} chunks`);
    console.log(`  total ${kb(page.bytes + css + icons + js)}; without JS (the page works without it) ${kb(page.bytes + css + icons)}`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
