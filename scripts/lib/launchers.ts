// Which processes above the server are part of the service, so that the server leaves with them.
// A server leaves with a launcher only when that launcher belongs to the service: the npm of
// `npm start` (with the `sh -c` it runs the script through), or a launcher that says so with
// SERVE_WITH_PARENT=1 (a supervisor that wants its child gone when it dies). Never with a shell
// or a script above that: `nohup npm start &` in a deploy script, or any launcher that starts the
// service and exits, must leave it running.
import { readFileSync } from "node:fs";

export type ProcInfo = { pid: number; ppid: number; comm: string; cmdline: string[] };

/** /proc/<pid>/stat and cmdline of one process, or null when it is gone or unreadable. */
export function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm may hold spaces and parentheses ("npm start"): it runs to the last ")".
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return { pid, ppid, comm, cmdline };
  } catch {
    return null;
  }
}

const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ash", "ksh", "mksh", "busybox"]);

export const isShell = (p: ProcInfo) => SHELLS.has(p.comm) || SHELLS.has((p.cmdline[0] ?? "").split("/").pop() ?? "");

/** npm sets its title to "npm <command>"; started by path, its cmdline names npm-cli.js. */
export const isNpm = (p: ProcInfo) => /^npm( |$)/.test(p.comm) || p.cmdline.some((a) => /(^|\/)npm(-cli\.js)?$/.test(a));

/**
 * The PIDs this server leaves with (empty: it leaves only on a signal).
 * - SERVE_WITH_PARENT=1: the direct parent (it declared itself part of the service);
 * - run by npm (npm_lifecycle_event set): every process up to and including that npm, provided
 *   only shells stand between (npm's `sh -c`); anything else between means a script of the
 *   user's started us, and we leave with nobody;
 * - otherwise nobody: whoever started us may come and go.
 */
export function serviceLaunchers(env: Record<string, string | undefined>, ppid: number, read: (pid: number) => ProcInfo | null = readProc): number[] {
  if (ppid <= 1) return [];
  if (env.SERVE_WITH_PARENT === "1") return [ppid];
  if (!env.npm_lifecycle_event) return [];
  const chain: number[] = [];
  let pid = ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const p = read(pid);
    if (!p) return [];
    chain.push(pid);
    if (isNpm(p)) return chain;
    if (!isShell(p)) return [];
    pid = p.ppid;
  }
  return [];
}

/** True while the process exists (EPERM: it exists, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Calls `onGone` once when any of `pids` dies (polled every 250 ms: a SIGKILL of the top process
 * gives nothing to forward). Callers wait a grace before acting on it: when a whole process group
 * gets SIGTERM, npm exits at once and its death can be seen before our own SIGTERM handler ran.
 */
export function watchLaunchers(pids: number[], onGone: (pid: number) => void, everyMs = 250): () => void {
  if (pids.length === 0) return () => {};
  const timer = setInterval(() => {
    const gone = pids.find((pid) => !alive(pid));
    if (gone !== undefined) {
      clearInterval(timer);
      onGone(gone);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
