import { NotJsonError } from './errors.js';
import type { Json } from './node.js';
import { loneSurrogateAt } from './internal/lone-surrogate.js';

/** How deep arrays and objects may nest in a node's `input` or `metadata` (the top-level value is depth 1). */
export const MAX_JSON_DEPTH = 256;

/**
 * Asserts that `value` is plain JSON as a node stores it: `null`, booleans, finite numbers, strings without lone
 * surrogates, dense arrays and plain objects (prototype `Object.prototype` or `null`) of those, without cycles,
 * nested at most {@link MAX_JSON_DEPTH} levels. Property values that are `undefined` are refused too (they would
 * vanish in storage), and so is the key `__proto__` (a copy of the object would silently drop it).
 *
 * @param value - The value to check.
 * @param path - How the value is named in the error; defaults to `value`.
 * @returns `value`, typed as {@link Json}.
 * @throws {@link NotJsonError} naming the JSON path of the first offending value, e.g. `input.files[2]`.
 * @example
 * ```ts
 * validateJson({ a: [1, 2] }, 'input');          // ok
 * validateJson({ a: [1, undefined] }, 'input');  // throws NotJsonError, data.path === 'input.a[1]'
 * ```
 */
export function validateJson(value: unknown, path = 'value'): Json {
  copyJson(value, path);
  return value as Json;
}

/**
 * Checks `value` as {@link validateJson} does and returns a plain copy of it, reading every property once: a getter
 * that returns something else on the next read, or a proxy, cannot change what was checked. The copy's keys are in
 * the order a stored node gives them back (sorted, as `canonicalJson` writes them), so a node just built reads as the
 * same node read from storage. A getter or proxy trap
 * that throws is refused as {@link NotJsonError} (never its own exception).
 *
 * @param value - The value to check and copy.
 * @param path - How the value is named in the error; defaults to `value`.
 * @returns a plain copy of `value`, typed as {@link Json}
 * @throws {@link NotJsonError} naming the JSON path of the first offending value
 * @example
 * ```ts
 * const safe = copyJson(untrusted, 'metadata'); // a plain copy; untrusted may change later, safe does not
 * ```
 */
export function copyJson(value: unknown, path = 'value'): Json {
  try {
    return check(value, path, new Set(), 1);
  } catch (err) {
    if (err instanceof NotJsonError) throw err;
    if (err instanceof RangeError) throw new NotJsonError({ path, reason: 'nested too deeply to read' });
    throw new NotJsonError({ path, reason: 'reading it threw (a getter or a proxy)' });
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function check(value: unknown, path: string, stack: Set<object>, depth: number): Json {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError({ path, reason: `non-finite number ${String(value)}` });
      return value;
    case 'string': {
      const i = loneSurrogateAt(value);
      if (i >= 0) throw new NotJsonError({ path, reason: `lone surrogate at index ${i}` });
      return value;
    }
    case 'object':
      break;
    default:
      throw new NotJsonError({ path, reason: typeof value });
  }
  if (value === null) return null;
  if (stack.has(value)) throw new NotJsonError({ path, reason: 'circular reference' });
  if (depth > MAX_JSON_DEPTH) throw new NotJsonError({ path, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` });
  stack.add(value);
  let copy: Json;
  if (Array.isArray(value)) {
    const items: Json[] = [];
    const length = value.length;
    for (let i = 0; i < length; i++) {
      if (!(i in value)) throw new NotJsonError({ path: `${path}[${i}]`, reason: 'hole in a sparse array' });
      items.push(check(value[i], `${path}[${i}]`, stack, depth + 1));
    }
    copy = items;
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw new NotJsonError({ path, reason: `non-plain object${typeof name === 'string' && name !== '' ? ` (${name})` : ''}` });
    }
    if (Object.getOwnPropertySymbols(value).length > 0) throw new NotJsonError({ path, reason: 'symbol-keyed property' });
    const fields: Record<string, Json> = {};
    // keys in canonical order: a node in memory reads as the stored one (canonical JSON sorts them)
    for (const key of Object.keys(value).sort()) {
      const sub = IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      const i = loneSurrogateAt(key);
      if (i >= 0) throw new NotJsonError({ path: sub, reason: `lone surrogate at index ${i} of the key` });
      if (key === '__proto__') throw new NotJsonError({ path: sub, reason: 'the key __proto__ cannot be stored faithfully' });
      fields[key] = check((value as Record<string, unknown>)[key], sub, stack, depth + 1);
    }
    copy = fields;
  }
  stack.delete(value);
  return copy;
}
