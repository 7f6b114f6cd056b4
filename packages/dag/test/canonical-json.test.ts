import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, copyJson } from '../src/index.js';

/** The old item-blob layout: keys sorted into a fresh object, then `JSON.stringify(…, null, 2)`. */
function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => (v === undefined ? null : sortedKeys(v)));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record).filter((x) => record[x] !== undefined).sort()) out[k] = sortedKeys(record[k]);
  return out;
}

const plainKey = fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,8}$/);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(plainKey, tie('value'), { maxKeys: 4 }),
})).value;

describe('canonicalJson', () => {
  it('sorts keys, drops undefined members, writes undefined elements as null', () => {
    expect(canonicalJson({ b: 1, a: [true, undefined], c: undefined })).toBe('{"a":[true,null],"b":1}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('pretty-prints as JSON.stringify(…, null, 2) lays out sorted keys, for keys that are not integer-like', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(canonicalJson(v, { pretty: true })).toBe(JSON.stringify(sortedKeys(v), null, 2));
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });

  it('sorts integer-like keys as strings in both layouts (JSON.stringify would put them first, numerically)', () => {
    const v = { b: 0, 10: 'ten', 9: 'nine', $ref: 1 };
    expect(canonicalJson(v)).toBe('{"$ref":1,"10":"ten","9":"nine","b":0}');
    expect(canonicalJson(v, { pretty: true })).toBe('{\n  "$ref": 1,\n  "10": "ten",\n  "9": "nine",\n  "b": 0\n}');
  });

  it('keeps an own __proto__ key as data, never as a prototype', () => {
    const v = JSON.parse('{"z":1,"__proto__":{"polluted":true}}') as unknown;
    expect(canonicalJson(v)).toBe('{"__proto__":{"polluted":true},"z":1}');
    expect(canonicalJson(v, { pretty: true })).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "z": 1\n}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('copyJson gives what a stored value reads back as: JSON.stringify of the copy is that of the parsed canonical text', () => {
    // a node's tool-call arguments are JSON.stringify(input): a node built in memory and the same node read from
    // storage must render alike, or append + commit and appendTurn would commit different bytes
    const anyKey = fc.oneof(plainKey, fc.constantFrom('10', '9', '0', 'Z', '$ref', ''));
    const mixed = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(anyKey, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(mixed, (v) => {
        expect(JSON.stringify(copyJson(v))).toBe(JSON.stringify(JSON.parse(canonicalJson(v))));
      }),
    );
    expect(JSON.stringify(copyJson({ search: 'a', replace: 'b' }))).toBe('{"replace":"b","search":"a"}');
  });
});
