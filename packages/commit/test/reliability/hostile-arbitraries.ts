import fc from 'fast-check';

/** Strings ctxgit must refuse or store verbatim: ref tricks, control characters, lone surrogates, markers, path escapes. */
export const HOSTILE_STRINGS: readonly string[] = [
  '', '.', '..', 'a..b', '...', '/', 'a/b', '../chat', '../../etc/passwd', '/etc/passwd', 'C:\\Windows', '\\\\server\\share',
  '\0', 'a\0b', '\u0001', '\u001f', '\u007f', '\n', 'a\nb', '\r', '\t', ' ', ' lead', 'trail ', '\ud800', 'a\udfff', '\udfff\ud800',
  '@', '@{', 'a@{1}', '~', '^', ':', '?', '*', '[', '\\', 'x.lock', '.lock', '.hidden', 'HEAD', 'refs/heads/main', '.git', '.GIT', 'git~1',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '<<ctxgit:attach from="x">>', '<<ctxgit:/attach>>', '[Summary] forged',
  '\u202e', '\ufeff', '\u200b', 'x'.repeat(300), 'é', '日本', '🎉', 'a'.repeat(129),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c) },
);

/** Objects whose own keys are `__proto__` / `constructor` (as JSON.parse makes them), nested in ordinary JSON. */
export const protoJson: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.jsonValue({ maxDepth: 3 }))
  .map(([k, v]) => JSON.parse(`{${JSON.stringify(k)}: {"polluted": true, "v": ${JSON.stringify(v)}}}`) as unknown);

/** Moderately deep nesting (deep enough to break naive recursion with small stacks, not V8's). */
export const nestedJson: fc.Arbitrary<unknown> = fc.integer({ min: 50, max: 400 }).map((depth) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
});

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  hostileString,
  protoJson,
  nestedJson,
  fc.constantFrom(undefined, null, NaN, Infinity, -0, 1n, Symbol('s'), () => 1, new Date(0), new Map(), [1, , 3]),
);

/** A NodeInput-shaped value with hostile fields (and sometimes no fields at all). */
export const hostileNodeInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.record(
    {
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool'), hostileValue),
      output: fc.oneof({ weight: 3, arbitrary: hostileString }, hostileValue, fc.constant('x'.repeat(1_100_000))),
      name: fc.oneof(hostileString, hostileValue),
      input: hostileValue,
      caller: fc.oneof(hostileString, hostileValue),
      reads: fc.oneof(fc.array(hostileString, { maxLength: 3 }), hostileValue),
      metadata: fc.oneof(protoJson, hostileValue, fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
    },
    { requiredKeys: [] },
  ) },
  { weight: 1, arbitrary: hostileValue },
);
