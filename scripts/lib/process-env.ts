// What `npm start` and `npm run serve` put in the server's environment before Node starts
// (package.json's scripts, which a test holds to these values), so that the tests and the
// benchmarks start the very process an operator runs.
//
// MALLOC_ARENA_MAX: glibc gives each thread that allocates at once an arena of its own, up to
// eight per core, and returns little of them to the system. Node's V8 platform workers (parsing,
// compiling and garbage collection in the background) and libuv's pool each allocate, so an idle
// production server held 60-82 MiB in such arenas after its start (64 MiB-aligned anonymous
// mappings in /proc/<pid>/smaps) against 2-28 MiB with two arenas; the server's own allocations
// are V8's heap, which does not go through malloc. Read by glibc when the process starts: it
// cannot be set from inside Node. An operator's own value is kept.
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/** The environment of a server process: these defaults under the caller's own values. */
export function serverProcessEnv<T extends Record<string, string | undefined>>(env: T): T {
  return { ...SERVER_PROCESS_ENV, ...env };
}
