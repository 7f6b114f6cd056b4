// Issue 17: the paths a pack's objects are sorted by (git's order: versions of one file or directory side by side).
import { expect, test } from 'vitest';
import { readObjectInternal } from '../src/git/internal/object-io.js';
import { objectPaths } from '../src/git/internal/object-paths.js';
import type { PackObject } from '../src/git/internal/pack-codec.js';
import { openGit } from '../src/git/open-git.js';
import { readTree } from '../src/git/read-tree.js';
import { updateTree } from '../src/git/update-tree.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { AUTHOR } from './git-fixtures.js';

test('each tree and blob gets the path its newest commit reaches it by, ranked newest first; what no commit reaches has none', async () => {
  const ctx = await openGit({ memory: true });
  const v1 = await writeBlob(ctx, 'one\n');
  const v2 = await writeBlob(ctx, 'two\n');
  const stray = await writeBlob(ctx, 'stray\n');
  const t1 = await updateTree(ctx, null, [{ path: ['items', 'a.json'], oid: v1, type: 'blob' }]);
  const t2 = await updateTree(ctx, t1, [{ path: ['items', 'a.json'], oid: v2, type: 'blob' }]);
  const c1 = await writeCommit(ctx, { tree: t1, parents: [], message: 'one\n', author: AUTHOR });
  const c2 = await writeCommit(ctx, { tree: t2, parents: [c1], message: 'two\n', author: { ...AUTHOR, timestamp: AUTHOR.timestamp + 60 } });
  const sub = async (tree: string): Promise<string> => (await readTree(ctx, tree)).find((e) => e.path === 'items')?.oid ?? '';
  const [s1, s2] = [await sub(t1), await sub(t2)];
  const oids = [v1, v2, stray, t1, t2, s1, s2, c1, c2];
  const objects: PackObject[] = await Promise.all(oids.map(async (oid) => ({ oid, ...(await readObjectInternal(ctx, oid)) })));
  const paths = objectPaths(objects.reverse());
  expect(paths.get(t2)).toEqual({ path: '', rank: 0 });
  expect(paths.get(t1)).toEqual({ path: '', rank: 1 });
  expect(paths.get(v2)?.path).toBe('/items/a.json');
  expect(paths.get(v1)?.path).toBe('/items/a.json');
  expect((paths.get(v2)?.rank ?? 0) < (paths.get(v1)?.rank ?? 0)).toBe(true);
  expect([paths.get(s2), paths.get(s1)]).toEqual([{ path: '/items', rank: 2 }, { path: '/items', rank: 3 }]);
  expect(paths.has(stray)).toBe(false);
  expect(paths.has(c1)).toBe(false);
});
