// A command in its own process group, as a terminal, systemd or Kubernetes starts a service, with
// its output kept; for the tests and scripts that stop services the way operators do.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

export function spawnGroup(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Started {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return { child, output: () => out, exited: new Promise((r) => child.once("exit", (code) => r(code))) };
}

/** True while any process of the group lives. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when something accepts connections on the loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}
