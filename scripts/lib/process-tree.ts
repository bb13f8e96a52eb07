// A process and its descendants as /proc shows them (Linux): what a benchmark sums for the
// service's memory, and what a test reads to see that no transpiler runs under the server.
import { readdirSync, readFileSync } from "node:fs";

/** One process: its parent, name, command line, resident memory now (VmRSS) and at its peak (VmHWM). */
export type Proc = { pid: number; ppid: number; comm: string; cmd: string; rssKiB: number; hwmKiB: number };

export function proc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (k: string) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return { pid, ppid, comm, cmd, rssKiB: kib("VmRSS"), hwmKiB: kib("VmHWM") };
  } catch {
    return null;
  }
}

/** The process `pid` and all its descendants, read from /proc. */
export function processTree(pid: number): Proc[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => proc(Number(d)))
    .filter((p): p is Proc => p !== null);
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (tree.has(p.ppid) && !tree.has(p.pid)) (tree.add(p.pid), (grew = true));
  }
  return all.filter((p) => tree.has(p.pid));
}

/** tsx or esbuild (its service process): what a compiled server's tree must not hold. */
export const isTranspiler = (p: Proc) => /\btsx\b|esbuild/.test(`${p.comm} ${p.cmd}`);
