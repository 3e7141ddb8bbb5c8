/**
 * Values worked out once per key and kept, for pure functions of their key whose keys repeat
 * across requests (days, zones, due dates): at most `limit` keys, and cleared when full rather
 * than kept in order, as a miss costs only the work again. A value may be null, never undefined.
 */
export class BoundedMemo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value of `key`, worked out by `compute` the first time (a throw is not kept). */
  get(key: K, compute: (key: K) => V): V {
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}
