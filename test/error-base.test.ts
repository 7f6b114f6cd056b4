// Every error class every package exports derives from the one base of @ctxgit/errors and carries a stable code.
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CtxgitError } from '@ctxgit/errors';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packages = readdirSync(join(root, 'packages')).filter((p) => p !== 'errors').sort();

/** An argument that reads as any string, number, list or record, so any error constructor can build its message. */
const anything: unknown = new Proxy(function anything() {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => 'x' : key === 'length' ? 1 : anything),
  apply: () => anything,
});

/** An instance of an error class: built as a base class (code, message, data), else from arguments that read as anything. */
function build(Class: new (...args: unknown[]) => unknown): CtxgitError {
  try {
    return new Class('E_TEST_CODE', 'message', {}) as CtxgitError;
  } catch {
    return new Class(anything, anything, anything, anything, anything, anything) as CtxgitError;
  }
}

describe('one error base class', () => {
  it('lists every package but errors', () => {
    expect(packages.length).toBeGreaterThanOrEqual(10);
  });

  for (const pkg of packages) {
    it(`every error class @ctxgit/${pkg} exports is a CtxgitError with a code`, async () => {
      const mod = (await import(pathToFileURL(join(root, 'packages', pkg, 'src', 'index.ts')).href)) as Record<string, unknown>;
      const classes = Object.entries(mod).filter(
        (e): e is [string, new (...args: unknown[]) => unknown] => typeof e[1] === 'function' && (e[1] as { prototype?: unknown }).prototype instanceof Error,
      );
      for (const [name, Class] of classes) {
        expect(Class.prototype instanceof CtxgitError, `${pkg}: ${name} extends CtxgitError`).toBe(true);
        const error = build(Class);
        expect(error, `${pkg}: ${name}`).toBeInstanceOf(CtxgitError);
        expect(error.code, `${pkg}: ${name}.code`).toMatch(/^E_[A-Z0-9_]+$/);
        expect(error.data ?? null, `${pkg}: ${name}.data`).not.toBeNull();
        expect(typeof error.retryable, `${pkg}: ${name}.retryable`).toBe('boolean');
        expect(error.name, `${pkg}: ${name}.name`).toBe(name);
      }
    });
  }
});
