// Guards the package map of DESIGN.md: dependency direction, no import cycles, no console.log in library code, and
// the layers of @ctxgit/commit (api → engine → store → git).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const allowed: Record<string, readonly string[]> = {
  errors: [],
  tokenize: ['errors'],
  dag: ['errors'],
  rules: ['errors', 'dag', 'tokenize'],
  commit: ['errors', 'dag', 'rules', 'tokenize'],
  render: ['errors', 'rules'],
  viewer: ['errors', 'dag', 'tokenize', 'rules', 'commit', 'render'],
  cli: ['errors', 'dag', 'tokenize', 'rules', 'commit', 'render', 'viewer'],
  langgraph: ['errors', 'commit', 'dag'],
  'ai-sdk': ['errors', 'commit', 'dag', 'render'],
  clients: ['errors', 'commit', 'dag', 'render'],
};

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

const importsOf = (source: string): string[] =>
  [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );

describe('package architecture', () => {
  for (const [pkg, deps] of Object.entries(allowed)) {
    const src = join(root, 'packages', pkg, 'src');
    const files = filesUnder(src);

    it(`${pkg} imports only the packages DESIGN.md allows`, () => {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')) as { dependencies?: object; peerDependencies?: object };
      const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
      for (const file of files) {
        for (const spec of importsOf(readFileSync(file, 'utf8'))) {
          const m = /^@ctxgit\/([a-z-]+)/.exec(spec);
          if (m) {
            expect(deps, `${relative(root, file)} imports ${spec}`).toContain(m[1]);
            expect(declared, `${pkg}/package.json must declare ${spec}`).toContain(`@ctxgit/${m[1]}`);
          } else if (!spec.startsWith('.') && !spec.startsWith('node:')) {
            const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
            expect(declared, `${relative(root, file)} imports ${spec}, undeclared in ${pkg}/package.json`).toContain(name);
          }
        }
      }
    });

    it(`${pkg} has no import cycles between its files`, () => {
      const graph = new Map<string, string[]>();
      for (const file of files) {
        const rel = importsOf(readFileSync(file, 'utf8'))
          .filter((s) => s.startsWith('.'))
          .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
        graph.set(file, rel);
      }
      const state = new Map<string, 1 | 2>();
      const stack: string[] = [];
      const visit = (f: string): void => {
        if (state.get(f) === 2) return;
        if (state.get(f) === 1) {
          const cycle = stack.slice(stack.indexOf(f)).map((x) => relative(root, x));
          throw new Error(`import cycle: ${cycle.join(' -> ')}`);
        }
        state.set(f, 1);
        stack.push(f);
        for (const g of graph.get(f) ?? []) visit(g);
        stack.pop();
        state.set(f, 2);
      };
      for (const f of graph.keys()) visit(f);
      expect(state.size).toBe(files.length);
    });

    if (pkg !== 'cli') {
      it(`${pkg} library code has no console.log`, () => {
        const code = (f: string): string =>
          readFileSync(f, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/^\s*\/\/.*$/gm, '');
        const offenders = files.filter((f) => /console\.log\(/.test(code(f)));
        expect(offenders.map((f) => relative(root, f))).toEqual([]);
      });
    }
  }
});

// @ctxgit/commit's source in folders by layer, each depending only downward: api/ (what users call: Repo, Session,
// openRepo) → engine/ (what a turn, a merge, an expand or a sync computes) → store/ (the storage format) → git/ (the
// plumbing, which knows nothing of ctxgit). The package's error classes (errors.ts) serve every layer above git;
// index.ts is the main entry (git/index.ts the `@ctxgit/commit/git` entry) and nothing imports an entry.
describe('@ctxgit/commit layers', () => {
  const src = join(root, 'packages', 'commit', 'src');
  const LAYERS = ['git', 'store', 'engine', 'api'] as const;
  const ENTRIES = new Set(['index.ts', 'git/index.ts']);
  // GitError extends CommitError, so that `catch (e) { if (e instanceof CommitError) … }` covers git failures too
  const GIT_EXCEPTIONS = new Set(['git/errors.ts -> errors.ts']);
  const layerOf = (rel: string): number => LAYERS.indexOf(rel.split('/')[0] as (typeof LAYERS)[number]);
  const rel = (file: string): string => relative(src, file).split('\\').join('/');
  const edges = filesUnder(src).flatMap((file) => {
    const from = rel(file);
    return importsOf(readFileSync(file, 'utf8')).map((spec) => ({
      from,
      spec,
      to: spec.startsWith('.') ? rel(resolve(dirname(file), spec.replace(/\.js$/, '.ts'))) : undefined,
    }));
  });

  it('every file is an entry, the error classes, or in a layer folder', () => {
    const loose = filesUnder(src).map(rel).filter((f) => !ENTRIES.has(f) && f !== 'errors.ts' && layerOf(f) < 0);
    expect(loose).toEqual([]);
  });

  it('a layer imports only its own and lower layers', () => {
    const upward = edges
      .filter((e) => e.to !== undefined && !ENTRIES.has(e.from) && e.to !== 'errors.ts')
      .filter((e) => ENTRIES.has(e.to as string) || layerOf(e.to as string) > layerOf(e.from))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(upward).toEqual([]);
  });

  it('git/ imports nothing of ctxgit outside git/ but @ctxgit/errors', () => {
    const outside = edges
      .filter((e) => e.from.startsWith('git/'))
      .filter((e) => (e.to === undefined ? e.spec.startsWith('@ctxgit/') && e.spec !== '@ctxgit/errors' : !e.to.startsWith('git/')))
      .map((e) => `${e.from} -> ${e.to ?? e.spec}`);
    expect(outside.filter((edge) => !GIT_EXCEPTIONS.has(edge))).toEqual([]);
    expect(new Set(outside), 'an exception no longer needed').toEqual(GIT_EXCEPTIONS);
  });
});
