// The runtime's ceiling on this machine, printed beside a benchmark's figures so a reader knows
// which kind of machine made them: node:http answering a JSON constant, in its own process like
// the app, driven by autocannon from the benchmark's process on the same cores.
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { freePort } from "./embedded-db.ts";
import { waitForHttp } from "./server.ts";

/** A raw node:http server answering a JSON constant. */
export async function rawNode(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const code = `require("node:http").createServer((q,s)=>{const b='{"ok":true}';s.writeHead(200,{"content-type":"application/json","content-length":b.length});s.end(b)}).listen(${port},"127.0.0.1")`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url);
  return { url, stop: () => child.kill() };
}

/** Requests/s of a raw node:http server at `connections`, after a 2 s warm-up. */
export async function rawNodeRate(connections = 50, seconds = 5): Promise<number> {
  const raw = await rawNode();
  try {
    await autocannon({ url: raw.url, connections: Math.min(connections, 10), duration: 2 });
    return Math.round((await autocannon({ url: raw.url, connections, duration: seconds })).requests.average);
  } finally {
    raw.stop();
  }
}
