// Bounded maps for caches: past `max` entries the oldest go first (a Map keeps insertion order),
// one at a time, so a flood can never empty a cache in one stroke.
export function rememberBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  while (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
