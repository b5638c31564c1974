/** The value memoised under `key`, made by `make` on first need: every language resolver memoises its answers so. */
export function memoised<K, V>(memo: Map<K, V>, key: K, make: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make();
    memo.set(key, value);
  }
  return value;
}
