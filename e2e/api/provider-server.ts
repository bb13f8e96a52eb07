// A second app server on the suite's database, for the real providers' tests: the suite's own
// server configures only the simulated common-protocol providers (so the other files' cascades
// stay what they assert), and each real provider's test file starts this one with that provider's
// simulator configured as an operator would configure the provider (PROVIDER_<CODE>_SECRET, its
// notice secret, PROVIDER_<CODE>_URL pointing at the simulator). The simulated providers stay
// configured here too, behind the real one in each rail's cascade order.
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { startNext, waitForHttp, type RunningServer } from "../../scripts/lib/server.ts";

export type ProviderServer = { url: string; stop: () => Promise<void> };

/** Starts the server with `env` added; `ready` waits for its first answer (a minute at most). */
export async function startProviderServer(env: Record<string, string>): Promise<ProviderServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = startNext({ port, env: { ...env, APP_URL: url }, stdio: "ignore" });
  try {
    await waitForHttp(`${url}/api/v1/ping`);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url, stop: () => server.stop() };
}
