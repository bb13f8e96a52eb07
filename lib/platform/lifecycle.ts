// The process's lifecycle: whether it is draining (a stop has begun: /readyz answers 503, new
// work is not started), and what a clean stop closes, in order: background jobs first (they use
// the rest), then clients (Redis, LISTEN connection, trace exporter), the database pool last.
// State lives on globalThis (singleton), so the server entry (scripts/serve.ts) and the route
// bundles of Next share one registry.
import { singleton } from "@/lib/platform/singleton";

type Closer = { name: string; order: number; close: () => Promise<unknown> };
const state = () => singleton("process-lifecycle", () => ({ draining: false, closers: [] as Closer[], stopped: null as Promise<string[]> | null }));

/** Order of closing: jobs 0, buffers 25 (what is held in memory is written, with the clients still open), clients 50, database 100. */
export const CLOSE_ORDER = { jobs: 0, buffers: 25, clients: 50, database: 100 } as const;

export function isDraining(): boolean {
  return state().draining;
}

export function startDraining(): void {
  state().draining = true;
}

export function onShutdown(name: string, order: number, close: () => Promise<unknown>): void {
  state().closers.push({ name, order, close });
}

/**
 * Closes everything registered, each step bounded by what is left of `timeoutMs`; answers the
 * names of the steps that did not finish in time. Runs once, however often it is called.
 */
export function shutdownResources(timeoutMs = 8_000): Promise<string[]> {
  const s = state();
  s.draining = true;
  s.stopped ??= (async () => {
    const deadline = Date.now() + timeoutMs;
    const late: string[] = [];
    for (const c of [...s.closers].sort((a, b) => a.order - b.order)) {
      const left = deadline - Date.now();
      const done = await Promise.race([c.close().then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), Math.max(0, left)).unref())]);
      if (!done) late.push(c.name);
    }
    return late;
  })();
  return s.stopped;
}
