// Guards the house rule "state that persists between calls belongs to an object the caller owns": no module-level
// caches. A module may hold constants (a lookup Set that nothing mutates, a Symbol); it may not hold a `let`/`var`,
// a WeakMap/WeakSet, or a Map/Set/array that its code mutates.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GUARDED = ['packages/rules/src', 'packages/commit/src/git', 'packages/tokenize/src'];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The module-level state of `source`: one line per offending declaration. */
export function moduleState(source: string): string[] {
  const code = withoutComments(source);
  const out: string[] = [];
  for (const line of code.split('\n')) {
    // Module scope: declarations that start at column 0.
    const m = /^(?:export\s+)?(const|let|var)\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (m === null) continue;
    const [, kind, name] = m as unknown as [string, string, string];
    if (kind !== 'const') out.push(`${kind} ${name}`);
    else if (/\bnew\s+Weak(?:Map|Set)\b/.test(line)) out.push(`const ${name} = new WeakMap/WeakSet`);
    else if (new RegExp(`(?<![\\w$.#])${name.replace(/\$/g, '\\$')}\\s*(?:\\.\\s*(?:set|add|delete|clear|push|pop|shift|unshift|splice)\\s*\\(|\\[[^\\]]*\\]\\s*=[^=])`).test(code))
      out.push(`const ${name} is mutated`);
  }
  return out;
}

describe('no module-level state', () => {
  it('the detector tells caches from constants', () => {
    expect(moduleState('const memo = new WeakMap<object, number>();')).toEqual(['const memo = new WeakMap/WeakSet']);
    expect(moduleState('export let standard: Rule[] | undefined;')).toEqual(['let standard']);
    expect(moduleState('const scans: Scan[] = [];\nfunction f() {\n  scans.unshift(new Scan());\n}')).toEqual(['const scans is mutated']);
    expect(moduleState('const byKey = new Map<string, number>();\nexport const g = (k: string) => byKey.set(k, 1);')).toEqual(['const byKey is mutated']);
    expect(moduleState("const ROLES = new Set(['user']);\nexport const ok = (r: string) => ROLES.has(r);")).toEqual([]);
    expect(moduleState("const STATE = Symbol('s');\nfunction f() {\n  const seen = new Set();\n  seen.add(1);\n}")).toEqual([]);
  });

  for (const dir of GUARDED) {
    it(`${dir} keeps no state in module scope (caches belong to an object the caller owns)`, () => {
      const offenders = filesUnder(join(root, dir)).flatMap((f) => moduleState(readFileSync(f, 'utf8')).map((o) => `${relative(root, f)}: ${o}`));
      expect(offenders).toEqual([]);
    });
  }
});
