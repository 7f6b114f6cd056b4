/**
 * Serializes a JSON-able value with object keys sorted (UTF-16 order) and no whitespace; `undefined` members are
 * dropped. Every blob ctxgit writes (items, `meta.json`, DAG nodes) is this text, so equal values share one object.
 *
 * @param value - a JSON value
 * @returns the canonical JSON text
 * @throws TypeError for a value JSON cannot represent (a function, a symbol, `undefined` at the top)
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v: unknown) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}
