import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GitArgumentError } from '../src/git/errors.js';
import { openGit } from '../src/git/open-git.js';
import type { TreeEdit } from '../src/git/tree-edit.js';
import { planTreeEdits, storeTrees } from '../src/git/internal/plan-tree-edits.js';
import { decodeTree, encodeTree } from '../src/git/internal/tree-codec.js';
import { loadTree } from '../src/git/internal/tree-load.js';
import { inBatch } from '../src/git/internal/pack-store.js';

// Names that sort next to one another in git's order: a prefix of another, a name that sorts between `x` and `x/`
// (`x-`, `x.`), non-ASCII, and a name that is both a blob and a tree over the steps.
const NAMES = ['a', 'a-', 'a.b', 'ab', 'b', 'x', 'x-', 'x.', 'x0', 'é', 'ü.txt', '0'];
const oid = (n: number): string => n.toString(16).padStart(40, '0');
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const edit = fc.record({
  path: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  type: fc.constantFrom('blob' as const, 'tree' as const),
  remove: fc.boolean(),
  id: fc.integer({ min: 1, max: 5000 }),
});

/** Drops the edits a plan refuses (one path below or above another, twice the same path). */
function plannable(edits: readonly { path: string[]; type: 'blob' | 'tree'; remove: boolean; id: number }[]): TreeEdit[] {
  const out: TreeEdit[] = [];
  for (const e of edits) {
    const key = e.path.join('/');
    if (out.some((o) => { const k = o.path.join('/'); return k === key || k.startsWith(`${key}/`) || key.startsWith(`${k}/`); })) continue;
    // a tree entry names the empty tree (a later edit may read it); a blob's oid stands for any object
    out.push({ path: e.path, type: e.type, oid: e.remove ? null : e.type === 'tree' ? EMPTY_TREE : oid(e.id) });
  }
  return out;
}

describe('a tree edit copies the bytes of the entries it keeps', () => {
  test('over successive edits (trees this process wrote, and trees read back), every new tree is byte for byte what encodeTree writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(edit, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (steps, reread) => {
        const ctx = await openGit({ memory: true, maintenance: false });
        let cur = ctx;
        let root: string | null = null;
        let spliced = 0;
        for (const [k, step] of steps.entries()) {
          // every other step, read back as another process would: its first edit starts from decoded entries
          if (reread && k % 2 === 1) cur = await openGit({ memory: true, fs: ctx.fs, maintenance: false });
          const edits = plannable(step);
          const staged = new Set(edits.flatMap((e) => (e.oid === null ? [] : [e.oid])));
          if (root !== null && (await loadTree(cur, root)).encoded !== undefined) spliced++;
          let plan: Awaited<ReturnType<typeof planTreeEdits>>;
          try {
            plan = await planTreeEdits(cur, root, edits, staged);
          } catch (err) {
            // an edit below a blob is refused, and the step writes nothing
            if (err instanceof GitArgumentError) continue;
            throw err;
          }
          for (const t of plan.trees) {
            const content = t.object.wrapped.subarray(t.object.headerLength);
            expect(Buffer.compare(Buffer.from(content), Buffer.from(encodeTree(t.sorted)))).toBe(0);
            expect(decodeTree(t.object.oid, content)).toEqual(t.sorted);
          }
          await inBatch(cur, () => storeTrees(cur, plan.trees));
          root = plan.root;
        }
        if (steps.length > 2 && !reread) expect(spliced).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
