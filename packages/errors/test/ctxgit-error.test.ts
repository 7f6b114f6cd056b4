import { describe, expect, it } from 'vitest';
import { CtxgitError } from '../src/index.js';

class DemoError extends CtxgitError<{ readonly n: number }> {
  constructor(n: number, cause?: unknown) {
    super('E_DEMO', `demo ${n}`, { n }, { cause, retryable: n > 1 });
  }
}

describe('CtxgitError', () => {
  it('carries code, data, retryable, cause and the subclass name', () => {
    const inner = new Error('disk full');
    const e = new DemoError(2, inner);
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(CtxgitError);
    expect([e.name, e.code, e.data.n, e.retryable, e.cause]).toEqual(['DemoError', 'E_DEMO', 2, true, inner]);
    expect(new DemoError(1).retryable).toBe(false);
    expect('cause' in new DemoError(1)).toBe(false);
  });

  it('serializes to JSON with its cause', () => {
    const outer = new CtxgitError('E_OUTER', 'outer', {}, { cause: new DemoError(1, 'plain') });
    expect(JSON.parse(JSON.stringify(outer))).toEqual({
      name: 'CtxgitError',
      code: 'E_OUTER',
      message: 'outer',
      data: {},
      retryable: false,
      cause: { name: 'DemoError', code: 'E_DEMO', message: 'demo 1', data: { n: 1 }, retryable: false, cause: 'plain' },
    });
    expect(new CtxgitError('E_X', 'x', {}, { cause: new TypeError('t') }).toJSON().cause).toEqual({ name: 'TypeError', message: 't' });
  });
});
