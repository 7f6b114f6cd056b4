const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRINGS = ['description', 'title', '$ref', 'format', '$schema', '$id', '$comment'];
const MAX_DEPTH = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a value is not JSON (a function, undefined, a non-finite number, a class instance), or undefined. */
function notJson(v: unknown, at: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${at}: nested deeper than ${MAX_DEPTH}`;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${at}: ${String(v)} is not a JSON number`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = notJson(v[i], `${at}[${i}]`, depth + 1);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (isObject(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
    for (const [k, x] of Object.entries(v)) {
      const bad = notJson(x, `${at}.${k}`, depth + 1);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  return `${at}: a ${typeof v} is not JSON`;
}

/** The first fault of a (sub)schema, as `path: what`, or undefined. */
function fault(s: unknown, at: string, depth: number): string | undefined {
  if (typeof s === 'boolean') return undefined;
  if (!isObject(s)) return `${at}: a schema must be an object`;
  if (depth > MAX_DEPTH) return `${at}: nested deeper than ${MAX_DEPTH}`;
  const type = s['type'];
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (list.length === 0 || list.some((t) => typeof t !== 'string' || !TYPES.has(t)) || new Set(list).size !== list.length) {
      return `${at}.type: ${JSON.stringify(type)} is not one of ${[...TYPES].join(', ')} (or a list of distinct ones)`;
    }
  }
  for (const k of STRINGS) if (s[k] !== undefined && typeof s[k] !== 'string') return `${at}.${k}: expected a string`;
  for (const k of NUMBERS) if (s[k] !== undefined && typeof s[k] !== 'number') return `${at}.${k}: expected a number`;
  for (const k of COUNTS) {
    const v = s[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)) return `${at}.${k}: expected a non-negative integer`;
  }
  if (s['pattern'] !== undefined) {
    if (typeof s['pattern'] !== 'string') return `${at}.pattern: expected a string`;
    try {
      new RegExp(s['pattern'], 'u');
    } catch {
      return `${at}.pattern: ${JSON.stringify(s['pattern'])} is not a regular expression`;
    }
  }
  if (s['enum'] !== undefined && (!Array.isArray(s['enum']) || s['enum'].length === 0)) return `${at}.enum: expected a non-empty array`;
  const props = s['properties'];
  if (props !== undefined) {
    if (!isObject(props)) return `${at}.properties: expected an object of schemas`;
    for (const [k, v] of Object.entries(props)) {
      const bad = fault(v, `${at}.properties.${k}`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  const required = s['required'];
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string') || new Set(required).size !== required.length) {
      return `${at}.required: expected an array of distinct property names`;
    }
    if (isObject(props)) {
      const missing = required.find((r) => !Object.hasOwn(props, r as string));
      if (missing !== undefined) return `${at}.required: ${JSON.stringify(missing)} is not among the properties`;
    }
  }
  for (const k of ['items', 'additionalProperties', 'not', 'contains', 'additionalItems']) {
    if (s[k] === undefined) continue;
    const v = s[k];
    const list = k === 'items' && Array.isArray(v) ? v : [v];
    for (let i = 0; i < list.length; i++) {
      const bad = fault(list[i], `${at}.${k}${list === v ? `[${i}]` : ''}`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  for (const k of SCHEMA_LISTS) {
    const v = s[k];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0) return `${at}.${k}: expected a non-empty array of schemas`;
    for (let i = 0; i < v.length; i++) {
      const bad = fault(v[i], `${at}.${k}[${i}]`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  for (const k of ['$defs', 'definitions']) {
    const v = s[k];
    if (v === undefined) continue;
    if (!isObject(v)) return `${at}.${k}: expected an object of schemas`;
    for (const [name, d] of Object.entries(v)) {
      const bad = fault(d, `${at}.${k}.${name}`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}

/**
 * Why `parameters` is not a tool's argument schema, or undefined when it is one. Checks what the providers read:
 * JSON values only, an object whose `type` (when given) is `object`, and, recursively, the keywords of JSON Schema
 * (draft 2020-12) that tool schemas use — `type`, `properties`, `required` (names among the properties), `items`,
 * `enum`, `anyOf`/`oneOf`/`allOf`, `additionalProperties`, `$defs`, numeric bounds and compilable `pattern`s.
 */
export function schemaFault(parameters: unknown): string | undefined {
  const json = notJson(parameters, 'parameters', 0);
  if (json !== undefined) return json;
  if (!isObject(parameters)) return 'parameters: expected a JSON Schema object';
  if (parameters['type'] !== undefined && parameters['type'] !== 'object') return `parameters.type: the arguments of a tool are an object, got ${JSON.stringify(parameters['type'])}`;
  return fault(parameters, 'parameters', 0);
}
