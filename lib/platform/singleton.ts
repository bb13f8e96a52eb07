// Next bundles each route separately, so a module-level `const` can exist once per route.
// Process-wide state (database pool, caches, rate-limit buckets) lives on globalThis instead.
export function singleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`latam-payments.${name}`);
  const g = globalThis as Record<symbol, unknown>;
  if (!(key in g)) g[key] = create();
  return g[key] as T;
}
