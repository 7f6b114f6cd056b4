import {
  AgentRunningError,
  BothPredecessorAndCallerError,
  CycleError,
  DagConflictError,
  DagError,
  DuplicateIdError,
  InvalidArgumentError,
  InvalidEdgeError,
  InvalidIdError,
  InvalidSessionNameError,
  MAX_SESSION_NAME_LENGTH,
  MalformedTranscriptError,
  MissingNodeError,
  NotJsonError,
  OutputTooLargeError,
  SessionExistsError,
  SessionNotFoundError,
  UnknownRoleError,
  defaultNodeId,
  validateJson,
  validateNodeId,
  validateSessionName,
} from '@ctxgit/dag';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

describe('error classes', () => {
  const cases: Array<[DagError, string, string, boolean]> = [
    [new UnknownRoleError({ role: 'robot', id: 'n1' }), 'E_DAG_UNKNOWN_ROLE', 'UnknownRoleError', false],
    [new BothPredecessorAndCallerError({ id: 'n', predecessor: 'p', caller: 'c' }), 'E_DAG_BOTH_PREDECESSOR_AND_CALLER', 'BothPredecessorAndCallerError', false],
    [new MissingNodeError({ missing: 'm', reference: 'predecessor', from: 'n' }), 'E_DAG_MISSING_NODE', 'MissingNodeError', false],
    [new CycleError({ ids: ['a', 'b', 'a'] }), 'E_DAG_CYCLE', 'CycleError', false],
    [new DuplicateIdError({ id: 'd' }), 'E_DAG_DUPLICATE_ID', 'DuplicateIdError', false],
    [new NotJsonError({ path: 'input.x', reason: 'function' }), 'E_DAG_NOT_JSON', 'NotJsonError', false],
    [new OutputTooLargeError({ id: 'n', bytes: 11, limit: 10 }), 'E_DAG_OUTPUT_TOO_LARGE', 'OutputTooLargeError', false],
    [new InvalidIdError({ id: '..', reason: 'r' }), 'E_DAG_INVALID_ID', 'InvalidIdError', false],
    [new InvalidSessionNameError({ name: '', reason: 'empty' }), 'E_DAG_INVALID_SESSION_NAME', 'InvalidSessionNameError', false],
    [new SessionNotFoundError({ session: 's' }), 'E_DAG_SESSION_NOT_FOUND', 'SessionNotFoundError', false],
    [new SessionExistsError({ session: 's' }), 'E_DAG_SESSION_EXISTS', 'SessionExistsError', false],
    [new AgentRunningError({ session: 's', operation: 'retryNode' }), 'E_DAG_AGENT_RUNNING', 'AgentRunningError', false],
    [new DagConflictError({ session: 's', expected: 1, actual: 2 }), 'E_DAG_CONFLICT', 'DagConflictError', true],
    [new MalformedTranscriptError({ format: 'claude-code', line: 3, reason: 'not JSON' }), 'E_DAG_MALFORMED_TRANSCRIPT', 'MalformedTranscriptError', false],
    [new InvalidEdgeError({ id: 'n', reference: 'caller', target: 'u', reason: 'r' }), 'E_DAG_INVALID_EDGE', 'InvalidEdgeError', false],
    [new InvalidArgumentError({ argument: 'x', reason: 'r' }), 'E_DAG_INVALID_ARGUMENT', 'InvalidArgumentError', false],
  ];
  it.each(cases.map(([e, code, name, retryable]) => ({ e, code, name, retryable })))('$name has a stable code, name, data and retryability', ({ e, code, name, retryable }) => {
    expect(e).toBeInstanceOf(DagError);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe(code);
    expect(e.name).toBe(name);
    expect(e.retryable).toBe(retryable);
    expect(e.message).toMatch(/\S{2,}.*\S/);
    expect(JSON.parse(JSON.stringify(e.data))).toEqual(e.data);
  });

  it('messages say what was wrong and what to do', () => {
    expect(new MalformedTranscriptError({ format: 'claude-code', line: 3, index: 2, reason: 'not JSON' }).message).toBe(
      "claude-code transcript, line 3, message 2: not JSON; fix the source or import with malformed: 'skip' to count and skip it",
    );
    expect(new OutputTooLargeError({ id: 'n', bytes: 11, limit: 10 }).message).toContain('raise maxOutputBytes');
    expect(new DagConflictError({ session: 's', expected: null, actual: 1 }).message).toContain('retry the operation');
    expect(new UnknownRoleError({ role: 'robot' }).message).toBe('unknown role "robot"; use one of system, user, assistant, tool');
  });
});

describe('validateJson', () => {
  it('accepts plain JSON and returns it', () => {
    const v = { a: [1, -2.5, 'x', null, true, { b: [] }], 'k y': 'é🚀', n: Object.assign(Object.create(null) as object, { z: 1 }) };
    expect(validateJson(v)).toBe(v);
    expect(validateJson('\ud83d\ude80')).toBe('🚀');
  });

  it.each<[unknown, string, string]>([
    [() => 1, 'value', 'function'],
    [undefined, 'value', 'undefined'],
    [[1, , 3], 'value[1]', 'hole in a sparse array'],
    [{ a: undefined }, 'value.a', 'undefined'],
    [-Infinity, 'value', 'non-finite number -Infinity'],
    [{ a: [NaN] }, 'value.a[0]', 'non-finite number NaN'],
    ['\ud800x', 'value', 'lone surrogate at index 0'],
    [{ ['\udc00']: 1 }, 'value["\\udc00"]', 'lone surrogate at index 0 of the key'],
    [new Date(0), 'value', 'non-plain object (Date)'],
    [{ s: new Set() }, 'value.s', 'non-plain object (Set)'],
    [{ [Symbol('s')]: 1 }, 'value', 'symbol-keyed property'],
    [Symbol('x'), 'value', 'symbol'],
    [10n, 'value', 'bigint'],
  ])('refuses %s at %s', (value, path, reason) => {
    let err: unknown;
    try {
      validateJson(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotJsonError);
    expect((err as NotJsonError).data).toEqual({ path, reason });
  });

  it('refuses circular references', () => {
    const a: Record<string, unknown> = {};
    a['self'] = [a];
    expect(() => validateJson(a, 'input')).toThrow(expect.objectContaining({ data: { path: 'input.self[0]', reason: 'circular reference' } }));
    const shared = { x: 1 };
    expect(validateJson({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });
});

describe('validateSessionName', () => {
  it('accepts ordinary names, refuses empty, control characters, lone surrogates, non-strings, overlong', () => {
    for (const ok of ['chat', 'support/ticket-42', 'é 🚀', 'x'.repeat(MAX_SESSION_NAME_LENGTH)]) expect(validateSessionName(ok)).toBe(ok);
    const bad: unknown[] = ['', 'a\nb', '\u0000', 'del\u007f', 'c1\u0085', 'x\ud800', 42, null, 'x'.repeat(MAX_SESSION_NAME_LENGTH + 1)];
    for (const b of bad) expect(() => validateSessionName(b)).toThrow(InvalidSessionNameError);
    expect(() => validateSessionName('a\tb')).toThrow(expect.objectContaining({ data: { name: 'a\tb', reason: 'control character U+0009 at index 1' } }));
  });
});

describe('validateNodeId and defaultNodeId', () => {
  it('accepts safe git path segments only', () => {
    for (const ok of ['a', '3f2a9c0b1d4e5f67', 'A_b-c.d', 'x'.repeat(128)]) expect(validateNodeId(ok)).toBe(ok);
    for (const bad of ['', '.hidden', 'a..b', 'a/b', 'a b', 'x.lock', 'x.', 'x'.repeat(129), 'é', 7]) expect(() => validateNodeId(bad)).toThrow(InvalidIdError);
  });

  it('is the first 16 hex digits of sha256(session NUL seq)', () => {
    expect(defaultNodeId('chat', 3)).toBe(createHash('sha256').update('chat\u00003').digest('hex').slice(0, 16));
    expect(defaultNodeId('chat', 3)).toBe(defaultNodeId('chat', 3));
    expect(defaultNodeId('chat', 3)).not.toBe(defaultNodeId('chat', 4));
    expect(defaultNodeId('chat', 3)).not.toBe(defaultNodeId('chat3', 0));
    expect(validateNodeId(defaultNodeId('any', 0))).toMatch(/^[0-9a-f]{16}$/);
  });
});
