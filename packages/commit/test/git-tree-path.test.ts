import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GitArgumentError, InvalidNameError, ObjectNotFoundError, ObjectTypeError } from '../src/git/errors.js';
import type { GitContext } from '../src/git/git-context.js';
import { listTree } from '../src/git/list-tree.js';
import { readPath } from '../src/git/read-path.js';
import { readTree } from '../src/git/read-tree.js';
import { updateTree } from '../src/git/update-tree.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { AUTHOR, FS_KINDS, fsckStrict, git } from './git-fixtures.js';
import { assertSegment, checkAnySegment } from '../src/git/internal/tree-codec.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Every blob path below a tree, `a/b/c` → oid, read with our own functions. */
async function flatten(ctx: GitContext, tree: string, prefix = ''): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readTree(ctx, tree)) {
    if (e.type === 'tree') for (const [k, v] of await flatten(ctx, e.oid, `${prefix}${e.path}/`)) out.set(k, v);
    else out.set(`${prefix}${e.path}`, e.oid);
  }
  return out;
}

/** Number of loose object files in the repository. */
async function countObjects(ctx: GitContext): Promise<number> {
  let n = 0;
  for (const dir of (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects`)).map(String)) {
    if (/^[0-9a-f]{2}$/u.test(dir)) n += (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects/${dir}`)).length;
  }
  return n;
}

describe.each(FS_KINDS)('tree paths on $name', (kind) => {
  test('updateTree creates nested trees, readPath and listTree find them', async () => {
    const ctx = await kind.open();
    const a = await writeBlob(ctx, 'a');
    const b = await writeBlob(ctx, 'b');
    const root = await updateTree(ctx, null, [
      { path: ['nodes', 'ab', 'cd', 'n1.json'], oid: a, type: 'blob' },
      { path: ['nodes', 'ab', 'ef', 'n2.json'], oid: b, type: 'blob' },
      { path: ['top.txt'], oid: a, type: 'blob' },
    ]);
    expect(await flatten(ctx, root)).toEqual(new Map([['nodes/ab/cd/n1.json', a], ['nodes/ab/ef/n2.json', b], ['top.txt', a]]));
    expect(await readPath(ctx, root, ['nodes', 'ab', 'cd', 'n1.json'])).toBe(a);
    expect(await readPath(ctx, root, [])).toBe(root);
    expect(await readPath(ctx, root, ['nodes', 'zz'])).toBeUndefined();
    expect(await readPath(ctx, root, ['top.txt', 'below'])).toBeUndefined();
    expect((await listTree(ctx, root, ['nodes', 'ab'])).map((e) => e.path)).toEqual(['cd', 'ef']);
    expect(await listTree(ctx, root, ['missing'])).toEqual([]);
    await expect(listTree(ctx, root, ['top.txt'])).rejects.toBeInstanceOf(ObjectTypeError);
  });

  test('an edit writes only the trees on its path, and deleting the last entry drops empty trees', async () => {
    const ctx = await kind.open();
    const blobs = await Promise.all(Array.from({ length: 40 }, (_, i) => writeBlob(ctx, `blob ${i}`)));
    const root = await updateTree(ctx, null, blobs.map((oid, i) => ({ path: ['d', `s${i % 8}`, `f${i}`], oid, type: 'blob' as const })));
    const extra = await writeBlob(ctx, 'extra');
    const before = await countObjects(ctx);
    const next = await updateTree(ctx, root, [{ path: ['d', 's3', 'new'], oid: extra, type: 'blob' }]);
    expect((await countObjects(ctx)) - before).toBe(3); // s3, d, root
    expect(await updateTree(ctx, next, [{ path: ['d', 's3', 'new'], oid: extra, type: 'blob' }])).toBe(next);
    const removed = await updateTree(ctx, next, [{ path: ['d', 's3', 'new'], oid: null, type: 'blob' }]);
    expect(removed).toBe(root);
    const oneLeft = await updateTree(ctx, null, [{ path: ['x', 'y', 'z'], oid: extra, type: 'blob' }]);
    expect(await updateTree(ctx, oneLeft, [{ path: ['x', 'y', 'z'], oid: null, type: 'blob' }])).toBe(EMPTY_TREE);
    expect(await updateTree(ctx, oneLeft, [{ path: ['x', 'nothing'], oid: null, type: 'blob' }])).toBe(oneLeft);
  });

  test('a subtree can be grafted by oid', async () => {
    const ctx = await kind.open();
    const a = await writeBlob(ctx, 'a');
    const sub = await updateTree(ctx, null, [{ path: ['k', 'v'], oid: a, type: 'blob' }]);
    const root = await updateTree(ctx, null, [{ path: ['graft', 'here'], oid: sub, type: 'tree' }]);
    expect(await readPath(ctx, root, ['graft', 'here', 'k', 'v'])).toBe(a);
  });

  test('conflicting, malformed or dangling edits are refused before anything is written', async () => {
    const ctx = await kind.open();
    const a = await writeBlob(ctx, 'a');
    const root = await updateTree(ctx, null, [{ path: ['f'], oid: a, type: 'blob' }]);
    const before = await countObjects(ctx);
    await expect(updateTree(ctx, root, [{ path: ['x'], oid: a, type: 'blob' }, { path: ['x'], oid: null, type: 'blob' }])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateTree(ctx, root, [{ path: ['x'], oid: a, type: 'blob' }, { path: ['x', 'y'], oid: a, type: 'blob' }])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateTree(ctx, root, [{ path: ['x', 'y'], oid: a, type: 'blob' }, { path: ['x'], oid: a, type: 'blob' }])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateTree(ctx, root, [{ path: [], oid: a, type: 'blob' }])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateTree(ctx, root, [{ path: ['..', 'x'], oid: a, type: 'blob' }])).rejects.toBeInstanceOf(InvalidNameError);
    await expect(updateTree(ctx, root, [{ path: ['a/b'], oid: a, type: 'blob' }])).rejects.toBeInstanceOf(InvalidNameError);
    await expect(updateTree(ctx, root, [{ path: ['n'], oid: '9'.repeat(40), type: 'blob' }])).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(updateTree(ctx, root, [{ path: ['f', 'below'], oid: a, type: 'blob' }])).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
    expect(await countObjects(ctx)).toBe(before);
  });

  test('property: updateTree agrees with a map of paths', async () => {
    const ctx = await kind.open();
    const blobs = await Promise.all(['p', 'q', 'r'].map((s) => writeBlob(ctx, s)));
    const seg = fc.constantFrom('a', 'b', 'c.json', 'd-1');
    const edit = fc.record({ path: fc.array(seg, { minLength: 1, maxLength: 3 }), blob: fc.option(fc.constantFrom(...blobs), { nil: null }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(edit, { maxLength: 4 }), { maxLength: 6 }), async (batches) => {
        let root: string | null = null;
        let model = new Map<string, string>();
        for (const batch of batches) {
          // keep only edits whose paths neither repeat nor nest, and that do not run through a blob of the model
          const kept: typeof batch = [];
          for (const e of batch) {
            const key = e.path.join('/');
            const clash = kept.some((k) => { const o = k.path.join('/'); return o === key || o.startsWith(`${key}/`) || key.startsWith(`${o}/`); });
            const throughBlob = e.path.some((_, i) => i < e.path.length - 1 && model.has(e.path.slice(0, i + 1).join('/')));
            const overTree = [...model.keys()].some((k) => k.startsWith(`${key}/`));
            if (!clash && !throughBlob && !overTree) kept.push(e);
          }
          root = await updateTree(ctx, root, kept.map((e) => ({ path: e.path, oid: e.blob, type: 'blob' as const })));
          const next = new Map(model);
          for (const e of kept) {
            if (e.blob === null) next.delete(e.path.join('/'));
            else next.set(e.path.join('/'), e.blob);
          }
          model = next;
          expect(await flatten(ctx, root)).toEqual(model);
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe('tree paths seen by the git binary', () => {
  test('git ls-tree -r and fsck --strict agree with a commit of an edited tree', async () => {
    const kind = FS_KINDS.find((k) => k.name === 'disk');
    if (kind === undefined) throw new Error('no disk kind');
    const ctx = await kind.open();
    const a = await writeBlob(ctx, '{"id":"n1"}');
    const b = await writeBlob(ctx, '{"id":"n2"}');
    const t1 = await updateTree(ctx, null, [{ path: ['nodes', '12', '34', 'n1.json'], oid: a, type: 'blob' }]);
    const t2 = await updateTree(ctx, t1, [{ path: ['nodes', '12', '35', 'n2.json'], oid: b, type: 'blob' }]);
    const c1 = await writeCommit(ctx, { tree: t1, parents: [], message: 'one\n', author: AUTHOR });
    const c2 = await writeCommit(ctx, { tree: t2, parents: [c1], message: 'two\n', author: AUTHOR });
    git(ctx, ['update-ref', 'refs/ctxgit/t', c2]);
    expect(git(ctx, ['ls-tree', '-r', '--name-only', c2])).toBe('nodes/12/34/n1.json\nnodes/12/35/n2.json\n');
    expect(git(ctx, ['diff', '--name-status', c1, c2])).toBe('A\tnodes/12/35/n2.json\n');
    expect(git(ctx, ['log', '--format=%s', 'refs/ctxgit/t'])).toBe('two\none\n');
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  });
});

describe('entry names', () => {
  const verdict = (check: (name: unknown) => void, name: unknown): string => {
    try {
      check(name);
      return 'ok';
    } catch (err) {
      return err instanceof InvalidNameError ? err.message : `other: ${String(err)}`;
    }
  };
  test('property: the one-test path for plain names refuses exactly what each check in turn refuses', () => {
    const chars = fc.constantFrom('a', 'G', 'i', 'T', 't', '0', '9', '_', '-', '.', ' ', '~', '1', '/', '\\', '\0', '\u200c', '\ufeff', '\ud800', 'é');
    const names = fc.oneof(fc.array(chars, { maxLength: 8 }).map((cs) => cs.join('')), fc.string(), fc.constantFrom('.git', 'GIT~1', '.gIt.', 'a.git', '-x', '.', '..'));
    fc.assert(
      fc.property(names, (name) => {
        expect(verdict(assertSegment, name)).toBe(verdict(checkAnySegment, name));
      }),
      { numRuns: 5000 },
    );
    for (const name of [undefined, 7, null]) expect(verdict(assertSegment, name)).toBe(verdict(checkAnySegment, name));
    expect(verdict(assertSegment, 'it_00ab-c.json')).toBe('ok');
  });
});
