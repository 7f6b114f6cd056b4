import { MAX_JSON_DEPTH, MemoryNodeStore, NotJsonError, appendNode, createSession, validateJson } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';

const nested = (depth: number): unknown => {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe('hostile JSON', () => {
  it('accepts nesting up to MAX_JSON_DEPTH and refuses one level more with the path', () => {
    expect(() => validateJson(nested(MAX_JSON_DEPTH), 'input')).not.toThrow();
    const err = (() => {
      try {
        validateJson(nested(MAX_JSON_DEPTH + 1), 'input');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(NotJsonError);
    expect((err as NotJsonError).data).toEqual({ path: `input${'[0]'.repeat(MAX_JSON_DEPTH)}`, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it('refuses 100,000 levels with a typed error, not a stack overflow, and stores nothing', async () => {
    const store = new MemoryNodeStore();
    await createSession(store, 's');
    for (const input of [{ input: nested(100_000) }, { metadata: { deep: nested(100_000) } }]) {
      await expect(appendNode(store, 's', { role: 'user', output: 'x', ...input } as never)).rejects.toBeInstanceOf(NotJsonError);
    }
    expect((await store.getSession('s'))?.head).toBeNull();
  });

  it('refuses a __proto__ key instead of dropping it silently', () => {
    const value: unknown = JSON.parse('{"a":{"__proto__":{"x":1}}}');
    expect(() => validateJson(value, 'metadata')).toThrow(NotJsonError);
    try {
      validateJson(value, 'metadata');
    } catch (e) {
      expect((e as NotJsonError).data).toEqual({ path: 'metadata.a.__proto__', reason: 'the key __proto__ cannot be stored faithfully' });
    }
  });
});
