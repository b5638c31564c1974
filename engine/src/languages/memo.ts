/** The value memoised under `key`, made by `make` on first need: every language resolver memoises its answers so. */
export function memoised<K, V>(memo: Map<K, V>, key: K, make: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make();
    memo.set(key, value);
  }
  return value;
}

/**
 * `memoised` for a cache that only the last few keys need: the value under `key`, made on first need, with at most
 * `capacity` values kept (the least recently used goes). For what a resolver reads per folder while a build visits
 * the files folder by folder: the whole project's worth would be held to the end of the build for nothing.
 */
export function recentlyUsed<K, V>(memo: Map<K, V>, key: K, make: () => V, capacity: number): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make();
    if (memo.size >= capacity) memo.delete(memo.keys().next().value as K);
  } else {
    memo.delete(key); // a Map iterates in insertion order: re-inserted, the key is the most recent
  }
  memo.set(key, value);
  return value;
}
