// Issue 17: the paths a pack's objects are sorted by (git's order: versions of one file or directory side by side).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { readObjectInternal } from '../src/git/internal/object-io.js';
import { objectPaths } from '../src/git/internal/object-paths.js';
import type { PackObject } from '../src/git/internal/pack-codec.js';
import type { ObjectPath } from '../src/git/internal/object-paths.js';
import { openGit } from '../src/git/open-git.js';
import { readTree } from '../src/git/read-tree.js';
import { updateTree } from '../src/git/update-tree.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { addTreeObjects, AUTHOR } from './git-fixtures.js';

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

/** The plain walk objectPaths optimizes: every entry's oid made a string and looked up. */
function plainObjectPaths(objects: readonly PackObject[]): Map<string, ObjectPath> {
  const byOid = new Map(objects.map((o) => [o.oid, o]));
  const paths = new Map<string, ObjectPath>();
  const text = (o: PackObject): Buffer => Buffer.from(o.content);
  const commits = objects
    .filter((o) => o.type === 'commit')
    .map((o) => ({ oid: o.oid, tree: text(o).toString('latin1', 5, 45), at: Number(/\ncommitter .* (\d+) [+-]\d{4}\n/u.exec(text(o).toString('latin1'))?.[1] ?? 0) }))
    .sort((a, b) => b.at - a.at || (a.oid < b.oid ? -1 : 1));
  const queue: string[] = [];
  for (const c of commits) {
    if (byOid.get(c.tree)?.type !== 'tree' || paths.has(c.tree)) continue;
    paths.set(c.tree, { path: '', rank: paths.size });
    queue.push(c.tree);
  }
  for (let q = 0; q < queue.length; q++) {
    const oid = queue[q] as string;
    const content = text(byOid.get(oid) as PackObject);
    for (let i = 0; i < content.length; ) {
      const nul = content.indexOf(0, i);
      const name = content.toString('utf8', content.indexOf(0x20, i) + 1, nul);
      const child = content.toString('hex', nul + 1, nul + 21);
      i = nul + 21;
      const kind = byOid.get(child)?.type;
      if ((kind !== 'tree' && kind !== 'blob') || paths.has(child)) continue;
      paths.set(child, { path: `${(paths.get(oid) as ObjectPath).path}/${name}`, rank: paths.size });
      if (kind === 'tree') queue.push(child);
    }
  }
  return paths;
}

test('property: the same paths and ranks as the plain walk, over commits that share, change and drop subtrees', async () => {
  const edit = fc.record({ path: fc.array(fc.constantFrom('a', 'b', 'c', 'items'), { minLength: 1, maxLength: 3 }), value: fc.option(fc.nat(5), { nil: null }) });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(edit, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.nat(), async (commits, drop) => {
      const ctx = await openGit({ memory: true });
      const oids = new Set<string>();
      let tree = await updateTree(ctx, null, [{ path: ['a'], oid: await writeBlob(ctx, 'start\n'), type: 'blob' }]);
      let parent: string | null = null;
      for (const [n, edits] of commits.entries()) {
        const writes = [];
        for (const e of edits) writes.push({ path: e.path, oid: e.value === null ? null : await writeBlob(ctx, `v${e.value}\n`), type: 'blob' as const });
        // an edit that puts a file where a folder is (or under a file) is refused: the commit keeps the tree before
        tree = await updateTree(ctx, tree, writes).catch(() => tree);
        parent = await writeCommit(ctx, { tree, parents: parent === null ? [] : [parent], message: `${n}\n`, author: { ...AUTHOR, timestamp: AUTHOR.timestamp + 60 * (n % 3) } });
        oids.add(parent);
        await addTreeObjects(ctx, tree, oids);
      }
      // a set without one of its objects, as a batch's pack lacks what earlier batches wrote
      const all = [...oids];
      all.splice(drop % all.length, 1);
      const objects: PackObject[] = await Promise.all(all.map(async (oid) => ({ oid, ...(await readObjectInternal(ctx, oid)) })));
      expect(objectPaths(objects)).toEqual(plainObjectPaths(objects));
    }),
    { numRuns: 60 },
  );
});
