import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { InvalidNameError } from '../src/git/errors.js';
import { validateRefComponent } from '../src/git/validate-ref-name.js';

const accepted = (name: string): boolean => {
  try {
    validateRefComponent(name, 'session');
    return true;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidNameError);
    return false;
  }
};

/** What the git binary says of `refs/ctxgit/sessions/<name>`. */
const gitAccepts = (name: string): boolean => spawnSync('git', ['check-ref-format', `refs/ctxgit/sessions/${name}`]).status === 0;

describe('validateRefComponent', () => {
  test.each(['chat-42', 'chat-42-alt', 'a', 'A.b_c-d', 'ünïcode', '日本語', 'x@y', 'a.b.c', '1'])('accepts %j', (name) => {
    expect(accepted(name)).toBe(true);
    expect(gitAccepts(name)).toBe(true);
  });

  test.each([
    ['', 'is empty'],
    ['a/b', "contains '/'"],
    ['..', "starts with '.'"],
    ['a..b', "contains '..'"],
    ['.hidden', "starts with '.'"],
    ['end.', "ends with '.'"],
    ['x.lock', "ends with '.lock'"],
    ['a@{1}', "contains '@{'"],
    ['@', "is '@'"],
    ['a b', 'contains U+0020'],
    ['tab\t', 'contains U+0009'],
    ['nul\u0000', 'contains U+0000'],
    ['del\u007f', 'contains U+007F'],
    ['a~1', 'contains "~"'],
    ['a^', 'contains "^"'],
    ['a:b', 'contains ":"'],
    ['a?', 'contains "?"'],
    ['a*', 'contains "*"'],
    ['a[', 'contains "["'],
    ['a\\b', 'contains "\\\\"'],
    ['-rf', "starts with '-'"],
    ['\ud800x', 'contains a lone surrogate'],
    ['x'.repeat(201), 'is longer than 200 bytes'],
  ])('refuses %j (%s)', (name, reason) => {
    expect(() => validateRefComponent(name, 'branch')).toThrow(InvalidNameError);
    try {
      validateRefComponent(name, 'branch');
    } catch (err) {
      expect(err).toMatchObject({ code: 'E_GIT_INVALID_NAME', data: { name, what: 'branch' } });
      expect((err as InvalidNameError).data['reason']).toContain(reason);
    }
  });

  test('refuses non-strings', () => {
    expect(() => validateRefComponent(42 as unknown as string, 'session')).toThrow(InvalidNameError);
  });

  test('property: every name it accepts, git check-ref-format accepts too', () => {
    const char = fc.constantFrom('a', 'Z', '0', '.', '-', '_', '@', '{', '/', ' ', '~', '^', ':', '\\', '*', '[', '\u0001', '\u007f', 'é', 'l', 'o', 'c', 'k');
    fc.assert(
      fc.property(fc.array(char, { minLength: 0, maxLength: 12 }).map((cs) => cs.join('')), (name) => {
        if (accepted(name)) expect(gitAccepts(name)).toBe(true);
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
