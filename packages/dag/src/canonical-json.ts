/** How {@link canonicalJson} lays its text out. */
export interface CanonicalJsonOptions {
  /**
   * Two-space indent, one member or element per line, as `JSON.stringify(value, null, 2)` lays it out (item blobs,
   * so that `git show` and `git diff` read field by field). @defaultValue false: no whitespace at all
   */
  readonly pretty?: boolean;
}

/**
 * Serializes a JSON-able value with object keys sorted (UTF-16 code unit order, for every key: integer-like keys
 * such as `"10"` and `"9"` sort as strings too, never in the numeric order `JSON.stringify` gives them) and no
 * whitespace; `undefined` members are dropped, `undefined` array elements written `null`. An own `__proto__` key
 * (as `JSON.parse` makes) is written like any other key. Every blob ctxgit writes (items, `meta.json`, DAG nodes,
 * session records) is this text, so equal values share one object and verify can re-serialize what it read.
 *
 * @param value - a JSON value
 * @param options - `pretty` for the indented layout of item blobs
 * @returns the canonical JSON text
 * @throws TypeError for a value JSON cannot represent (a function, a symbol, `undefined` at the top)
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * canonicalJson({ 10: 'x', 9: 'y' }); // '{"10":"x","9":"y"}'
 * canonicalJson({ b: [1], a: {} }, { pretty: true }); // '{\n  "a": {},\n  "b": [\n    1\n  ]\n}'
 * ```
 */
export function canonicalJson(value: unknown, options?: CanonicalJsonOptions): string {
  return write(value, options?.pretty === true ? '\n' : undefined);
}

/** `newline` is undefined for the compact layout, else a newline and the indent of the current level. */
function write(value: unknown, newline: string | undefined): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return text;
  }
  const inner = newline === undefined ? undefined : `${newline}  `;
  const colon = newline === undefined ? ':' : ': ';
  let parts: string[];
  let open: string;
  let close: string;
  if (Array.isArray(value)) {
    parts = value.map((v: unknown) => (v === undefined ? 'null' : write(v, inner)));
    [open, close] = ['[', ']'];
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    parts = keys.map((k) => `${JSON.stringify(k)}${colon}${write(record[k], inner)}`);
    [open, close] = ['{', '}'];
  }
  if (parts.length === 0) return `${open}${close}`;
  return inner === undefined ? `${open}${parts.join(',')}${close}` : `${open}${inner}${parts.join(`,${inner}`)}${newline}${close}`;
}
