import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '@ctxgit/dag';
import { InvalidOptionError } from '../../src/index.js';
import { readBlob, readCommitObject, readRef, updateTree, writeBlob, writeCommit } from '../../src/git/index.js';
import { readTree } from '../../src/git/read-tree.js';
import type { Repo } from '../../src/index.js';
import type { GitContext } from '../../src/git/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import type { VerifyIssueCode, VerifyReport } from '../../src/api/verify/verify-report.js';
import { recordBlobText } from '../../src/store/layout/item-blob.js';
import { buildRepo } from './build-repo.js';
import type { BuiltRepo } from './build-repo.js';
import type { Storage } from './support.js';
import { STORAGES, cleanTemps, fsck, writeCounts } from './support.js';

afterAll(cleanTemps);

const counts = { corruptions: 0, detected: 0 };
afterAll(() => writeCounts('verify', counts));

const WHO = { name: 'ctxgit', email: 'ctxgit@localhost', timestamp: 1_700_000_000, timezoneOffset: 0 };
const decoder = new TextDecoder();

function codes(r: VerifyReport): VerifyIssueCode[] {
  return [...new Set(r.issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort();
}

async function forceRef(s: Storage, ref: string, value: string): Promise<void> {
  await s.fs.promises.writeFile(`${s.gitdir}/${ref}`, `${value}\n`);
}

/** The blob entries under `items/` of a commit tree, in order, with their paths. */
async function items(ctx: GitContext, tree: string): Promise<{ path: string[]; oid: string }[]> {
  const out: { path: string[]; oid: string }[] = [];
  const walk = async (oid: string, path: string[]): Promise<void> => {
    for (const e of await readTree(ctx, oid)) {
      if (e.type === 'tree') await walk(e.oid, [...path, e.path]);
      else out.push({ path: [...path, e.path], oid: e.oid });
    }
  };
  const top = (await readTree(ctx, tree)).find((e) => e.path === 'items');
  if (top !== undefined) await walk(top.oid, ['items']);
  return out;
}

async function json(ctx: GitContext, oid: string): Promise<Record<string, unknown>> {
  return JSON.parse(decoder.decode(await readBlob(ctx, oid))) as Record<string, unknown>;
}

describe.each(STORAGES)('verifyRepo (%#)', (make) => {
  let s: Storage;
  let b: BuiltRepo;
  let repo: Repo;
  let ctx: GitContext;
  const contextRef = 'refs/ctxgit/sessions/chat/context';
  const dagRef = 'refs/ctxgit/sessions/chat/dag';

  beforeAll(async () => {
    s = make();
    b = await buildRepo(s);
    repo = b.repo;
    ctx = repo.git;
  });

  /** Applies a corruption, checks verify reports `expected` among its errors, undoes it, checks clean again. */
  async function corrupt(expected: VerifyIssueCode, apply: () => Promise<() => Promise<void>>): Promise<VerifyReport> {
    const undo = await apply();
    const r = await verifyRepo(repo, { previous: null });
    counts.corruptions++;
    try {
      expect(r.ok).toBe(false);
      expect(codes(r)).toContain(expected);
      counts.detected++;
    } finally {
      await undo();
    }
    expect((await verifyRepo(repo, { previous: null })).issues).toEqual([]);
    return r;
  }

  /** Points the context ref of chat at a commit whose tree is `edit(tree of the latest commit)`. */
  async function withContext(edit: (tree: string) => Promise<string>, parents?: (p: readonly string[]) => string[]): Promise<() => Promise<void>> {
    const old = (await readRef(ctx, contextRef)) as string;
    const c = await readCommitObject(ctx, old);
    const tree = await edit(c.tree);
    const oid = await writeCommit(ctx, { tree, parents: parents === undefined ? c.parents : parents(c.parents), message: c.message, author: WHO, committer: WHO });
    await forceRef(s, contextRef, oid);
    return () => forceRef(s, contextRef, old);
  }

  /** Moves chat's DAG ref to a commit (child of the head) whose tree is `edit(head tree)`. */
  async function withDag(edit: (tree: string) => Promise<string>, parentless = false): Promise<() => Promise<void>> {
    const head = (await readRef(ctx, dagRef)) as string;
    const c = await readCommitObject(ctx, head);
    const oid = await writeCommit(ctx, { tree: await edit(c.tree), parents: parentless ? [] : [head], message: 'tamper\n', author: WHO });
    await forceRef(s, dagRef, oid);
    return () => forceRef(s, dagRef, head);
  }

  async function dagNodePath(id: string): Promise<string[]> {
    const h = createHash('sha1').update(id).digest('hex');
    return ['nodes', h.slice(0, 2), h.slice(2, 4), `${id}.json`];
  }

  it('is clean on a repository with tool calls, folds, a fork, an attach and a merge; git fsck agrees', async () => {
    const r = await verifyRepo(repo);
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.counts.summaries).toBeGreaterThan(0);
    expect(r.counts.contextCommits).toBeGreaterThanOrEqual(17);
    expect(r.counts.sessions).toBe(3);
    // the token: a stored commit whose parents are the sessions' DAG commits
    const token = await readCommitObject(ctx, r.token as string);
    expect(token.parents).toContain(await readRef(ctx, dagRef));
    expect(token.parents).toHaveLength(3);
    if (s.name === 'disk') expect(fsck(s.gitdir)).toEqual([]);
  });

  it('records a token and checks append-only growth against it', async () => {
    const first = await verifyRepo(repo, { record: true });
    expect(first.recorded).toBe(true);
    expect(await readRef(ctx, 'refs/ctxgit/verified')).toBe(first.token);
    await b.chat.append({ role: 'user', output: 'one more' });
    const again = await verifyRepo(repo);
    expect(again.previous).toBe(first.token);
    expect(again.ok).toBe(true);
    expect(again.token).not.toBe(first.token);
  });

  it('throws only for bad arguments', async () => {
    await expect(verifyRepo(null as unknown as Repo)).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(verifyRepo({} as unknown as Repo)).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(verifyRepo(repo, { previous: 'HEAD~1' })).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(verifyRepo(repo, { record: 'yes' as unknown as boolean })).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it('a ref to a missing object', () =>
    corrupt('E_VERIFY_REF_MISSING_OBJECT', async () => {
      const old = (await readRef(ctx, contextRef)) as string;
      await forceRef(s, contextRef, 'f'.repeat(40));
      return () => forceRef(s, contextRef, old);
    }));

  it('a ref file holding garbage', () =>
    corrupt('E_VERIFY_REF_UNREADABLE', async () => {
      const old = (await readRef(ctx, contextRef)) as string;
      await forceRef(s, contextRef, 'not an oid');
      return () => forceRef(s, contextRef, old);
    }));

  it('a ref to an object of the wrong type', () =>
    corrupt('E_VERIFY_REF_WRONG_TYPE', async () => {
      const old = (await readRef(ctx, contextRef)) as string;
      await forceRef(s, contextRef, await writeBlob(ctx, 'a blob, not a commit'));
      return () => forceRef(s, contextRef, old);
    }));

  it('a commit-index entry naming the commit of another node', () =>
    corrupt('E_VERIFY_REF_MISMATCH', async () => {
      const head = b.last.headNodeId;
      const h = createHash('sha1').update(head).digest('hex');
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: ['commits', h.slice(0, 2), h.slice(2, 4), head], oid: await writeBlob(ctx, `${b.folded.id}\n`), type: 'blob' }]));
    }));

  it('a config ref to a commit that is not a config', () =>
    corrupt('E_VERIFY_CONFIG_INVALID', async () => {
      const ref = 'refs/ctxgit/sessions/chat/config';
      const old = (await readRef(ctx, ref)) as string;
      await forceRef(s, ref, b.folded.id);
      return () => forceRef(s, ref, old);
    }));

  it('an item blob that is not canonical JSON (does not re-hash to its tree entry)', () =>
    corrupt('E_VERIFY_ITEM_HASH_MISMATCH', () =>
      withContext(async (tree) => {
        const [first] = await items(ctx, tree);
        // item blobs are pretty-printed canonical JSON: the same item on one line is not
        const compact = await writeBlob(ctx, `${JSON.stringify(await json(ctx, first?.oid ?? ''))}\n`);
        return updateTree(ctx, tree, [{ path: first?.path ?? [], oid: compact, type: 'blob' }]);
      }),
    ));

  it('a summary without the tree of what it folded beside it', () =>
    corrupt('E_VERIFY_SUMMARY_ORIGINAL_MISSING', () =>
      withContext(async (tree) => {
        const under = (await items(ctx, tree)).find((it) => it.path.length > 4);
        expect(under).toBeDefined();
        return updateTree(ctx, tree, [{ path: under?.path.slice(0, 4) ?? [], oid: null, type: 'tree' }]);
      }),
    ));

  it("a folded original missing from its summary's tree", () =>
    corrupt('E_VERIFY_SUMMARY_ORIGINAL_MISSING', () =>
      withContext(async (tree) => {
        const under = (await items(ctx, tree)).find((it) => it.path.length === 5);
        return updateTree(ctx, tree, [{ path: under?.path ?? [], oid: null, type: 'blob' }]);
      }),
    ));

  it('a folded original summarized into another summary than the one whose tree holds it', () =>
    corrupt('E_VERIFY_SUMMARY_ORIGINAL_MISSING', () =>
      withContext(async (tree) => {
        const under = (await items(ctx, tree)).find((it) => it.path.length === 5) as { path: string[]; oid: string };
        const item = await json(ctx, under.oid);
        const moved = await writeBlob(ctx, recordBlobText({ ...item, state: 'summarized', reason: 'folded', mergedInto: 'sm_0000000000000000' }));
        return updateTree(ctx, tree, [{ path: under.path, oid: moved, type: 'blob' }]);
      }),
    ));

  it('a folded original that is live as well (under a summary and in the live list)', () =>
    corrupt('E_VERIFY_ITEM_INVALID', () =>
      withContext(async (tree) => {
        const under = (await items(ctx, tree)).find((it) => it.path.length === 5) as { path: string[]; oid: string };
        const name = `999999999-${(under.path[4] ?? '').replace(/^\d{9}-/u, '')}`;
        return updateTree(ctx, tree, [{ path: ['items', '99999', '99', name], oid: under.oid, type: 'blob' }]);
      }),
    ));

  it('an item stored under another key', () =>
    corrupt('E_VERIFY_ITEM_PATH_MISMATCH', () =>
      withContext(async (tree) => {
        const [first] = await items(ctx, tree);
        const path = first?.path ?? [];
        const name = path[3] ?? '';
        const moved = [...path.slice(0, 3), name.replace(/-.*\.json$/u, '-someoneelse.json')];
        return updateTree(ctx, tree, [
          { path, oid: null, type: 'blob' },
          { path: moved, oid: first?.oid ?? '', type: 'blob' },
        ]);
      }),
    ));

  it('an item removed from the tree (count mismatch)', () =>
    corrupt('E_VERIFY_ITEM_COUNT_MISMATCH', () =>
      withContext(async (tree) => {
        const all = await items(ctx, tree);
        const lastItem = all[all.length - 1];
        return updateTree(ctx, tree, [{ path: lastItem?.path ?? [], oid: null, type: 'blob' }]);
      }),
    ));

  it('an item whose origin is another node', () =>
    corrupt('E_VERIFY_ORIGIN_MISMATCH', () =>
      withContext(async (tree) => {
        const all = await items(ctx, tree);
        const withOrigin: { path: string[]; value: Record<string, unknown> }[] = [];
        for (const e of all) {
          const value = await json(ctx, e.oid);
          if (typeof value['origin'] === 'string') withOrigin.push({ path: e.path, value });
        }
        const [x, y] = withOrigin;
        const swapped = await writeBlob(ctx, `${canonicalJson({ ...x?.value, origin: y?.value['origin'] })}\n`);
        return updateTree(ctx, tree, [{ path: x?.path ?? [], oid: swapped, type: 'blob' }]);
      }),
    ));

  it('an original a summary folded missing from its commit', () =>
    corrupt('E_VERIFY_SUMMARY_ORIGINAL_MISSING', async () => {
      const old = (await readRef(ctx, contextRef)) as string;
      const c = await readCommitObject(ctx, b.folded.id);
      const all = await items(ctx, c.tree);
      let victim: string[] = [];
      // items/<5>/<2>/<live file> is live; a blob one level deeper sits in a summary's tree: a folded original.
      for (const e of all) if (e.path.length > 4) victim = e.path;
      const metaOid = (await readTree(ctx, c.tree)).find((e) => e.path === 'meta.json')?.oid ?? '';
      const meta = await json(ctx, metaOid);
      const newMeta = await writeBlob(ctx, `${canonicalJson({ ...meta, itemCount: (meta['itemCount'] as number) - 1 })}\n`);
      const tree = await updateTree(ctx, c.tree, [
        { path: victim, oid: null, type: 'blob' },
        { path: ['meta.json'], oid: newMeta, type: 'blob' },
      ]);
      await forceRef(s, contextRef, await writeCommit(ctx, { tree, parents: c.parents, message: c.message, author: WHO }));
      return () => forceRef(s, contextRef, old);
    }));

  it('a commit whose head node is not in the DAG', () =>
    corrupt('E_VERIFY_HEAD_NODE_MISSING', () =>
      withContext(async (tree) => {
        const metaOid = (await readTree(ctx, tree)).find((e) => e.path === 'meta.json')?.oid ?? '';
        const meta = await json(ctx, metaOid);
        return updateTree(ctx, tree, [{ path: ['meta.json'], oid: await writeBlob(ctx, `${canonicalJson({ ...meta, headNodeId: 'nowhere' })}\n`), type: 'blob' }]);
      }),
    ));

  it('a git commit without meta.json where a ContextCommit belongs', () =>
    corrupt('E_VERIFY_NOT_CONTEXT_COMMIT', () => withContext(async (tree) => updateTree(ctx, tree, [{ path: ['meta.json'], oid: null, type: 'blob' }]))));

  it('a second parent that no merge explains', () =>
    corrupt('E_VERIFY_UNEXPLAINED_PARENT', async () => {
      const old = (await readRef(ctx, contextRef)) as string;
      const c = await readCommitObject(ctx, b.folded.id);
      await forceRef(s, contextRef, await writeCommit(ctx, { tree: c.tree, parents: [...c.parents, old], message: c.message, author: WHO }));
      return () => forceRef(s, contextRef, old);
    }));

  it('a DAG node rewritten after a verification (append-only broken), and its index now disagrees', async () => {
    const first = await verifyRepo(repo, { previous: null });
    const head = (await repo.store.getSession('chat'))?.head as string;
    const node = (await repo.store.getNode(head)) as unknown as Record<string, unknown>;
    const path = await dagNodePath(head);
    const undo = await withDag(async (tree) => updateTree(ctx, tree, [{ path, oid: await writeBlob(ctx, canonicalJson({ ...node, output: 'rewritten' })), type: 'blob' }]));
    const r = await verifyRepo(repo, { previous: first.token });
    await undo();
    counts.corruptions++;
    expect(codes(r)).toEqual(['E_VERIFY_DAG_INDEX_MISMATCH', 'E_VERIFY_DAG_REWRITTEN']);
    counts.detected++;
    expect((await verifyRepo(repo, { previous: first.token })).ok).toBe(true);
  });

  it('a DAG history that does not descend from the previous verification', async () => {
    const first = await verifyRepo(repo, { previous: null });
    const undo = await withDag(async (tree) => tree, true);
    const r = await verifyRepo(repo, { previous: first.token });
    await undo();
    counts.corruptions++;
    expect(codes(r)).toContain('E_VERIFY_DAG_HISTORY_BROKEN');
    counts.detected++;
  });

  it('a committed DAG node rewritten: the items that came from it no longer match their origin', () =>
    corrupt('E_VERIFY_ORIGIN_MISMATCH', async () => {
      const id = b.last.headNodeId;
      const node = (await repo.store.getNode(id)) as unknown as Record<string, unknown>;
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: await dagNodePath(id), oid: await writeBlob(ctx, canonicalJson({ ...node, output: 'forged' })), type: 'blob' }]));
    }));

  it('a DAG node that is not canonical JSON', () =>
    corrupt('E_VERIFY_DAG_NODE_NOT_CANONICAL', async () => {
      const head = (await repo.store.getSession('chat'))?.head as string;
      const node = await repo.store.getNode(head);
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: await dagNodePath(head), oid: await writeBlob(ctx, JSON.stringify(node, null, 1)), type: 'blob' }]));
    }));

  it('a DAG node with a dangling edge', () =>
    corrupt('E_VERIFY_DAG_EDGE_DANGLING', async () => {
      const head = (await repo.store.getSession('chat'))?.head as string;
      const node = (await repo.store.getNode(head)) as unknown as Record<string, unknown>;
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: await dagNodePath(head), oid: await writeBlob(ctx, canonicalJson({ ...node, reads: ['ghost-node'] })), type: 'blob' }]));
    }));

  it('a cycle in the DAG', () =>
    corrupt('E_VERIFY_DAG_CYCLE', async () => {
      const [root] = await repo.store.rootsOf('chat');
      const node = (await repo.store.getNode(root ?? '')) as unknown as Record<string, unknown>;
      const head = (await repo.store.getSession('chat'))?.head as string;
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: await dagNodePath(root ?? ''), oid: await writeBlob(ctx, canonicalJson({ ...node, reads: [head] })), type: 'blob' }]));
    }));

  it('a node missing from the children index', () =>
    corrupt('E_VERIFY_DAG_INDEX_MISMATCH', async () => {
      const head = (await repo.store.getSession('chat'))?.head as string;
      const node = (await repo.store.getNode(head)) as unknown as { predecessor: string; seq: number };
      const h = createHash('sha1').update(node.predecessor).digest('hex');
      const entry = ['children', h.slice(0, 2), h.slice(2, 4), node.predecessor, `${String(node.seq).padStart(16, '0')}.${head}`];
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: entry, oid: null, type: 'blob' }]));
    }));

  it('a session record whose head is not in the DAG', () =>
    corrupt('E_VERIFY_DAG_SESSION_INVALID', async () => {
      const rec = await repo.store.getSession('chat');
      return withDag(async (tree) => updateTree(ctx, tree, [{ path: ['session.json'], oid: await writeBlob(ctx, canonicalJson({ ...rec, head: 'nobody' })), type: 'blob' }]));
    }));

  /** The pack file holding `oid` and the offset of its entry, read from the packs' version-2 indexes. */
  async function packedAt(oid: string): Promise<{ pack: string; offset: number }> {
    const dir = `${s.gitdir}/objects/pack`;
    for (const f of (await s.fs.promises.readdir(dir)).map(String).filter((x) => x.endsWith('.idx'))) {
      const idx = Buffer.from(await s.fs.promises.readFile(`${dir}/${f}`));
      const n = idx.readUInt32BE(8 + 255 * 4);
      for (let i = 0; i < n; i++) {
        if (idx.toString('hex', 1032 + i * 20, 1032 + (i + 1) * 20) === oid) return { pack: `${dir}/${f.slice(0, -4)}.pack`, offset: idx.readUInt32BE(1032 + n * 24 + i * 4) };
      }
    }
    throw new Error(`${oid} is in no pack`);
  }

  it('a damaged pack entry on storage is seen even when the repository cached it', () =>
    corrupt('E_VERIFY_OBJECT_CORRUPT', async () => {
      const c = await readCommitObject(ctx, (await readRef(ctx, contextRef)) as string);
      const [first] = await items(ctx, c.tree);
      const { pack, offset } = await packedAt(first?.oid ?? '');
      const bytes = Buffer.from(await s.fs.promises.readFile(pack));
      const damaged = Buffer.from(bytes);
      for (let i = offset + 4; i < Math.min(offset + 40, damaged.length - 20); i++) damaged[i] = 0x55;
      await s.fs.promises.unlink(pack);
      await s.fs.promises.writeFile(pack, damaged);
      return async () => {
        await s.fs.promises.unlink(pack);
        await s.fs.promises.writeFile(pack, bytes);
      };
    }));

  it('a deleted pack file', () =>
    corrupt('E_VERIFY_OBJECT_CORRUPT', async () => {
      const meta = (await readTree(ctx, (await readCommitObject(ctx, b.folded.id)).tree)).find((e) => e.path === 'meta.json')?.oid ?? '';
      const { pack } = await packedAt(meta);
      const bytes = await s.fs.promises.readFile(pack);
      const idx = `${pack.slice(0, -5)}.idx`;
      const index = await s.fs.promises.readFile(idx);
      await s.fs.promises.unlink(pack);
      await s.fs.promises.unlink(idx);
      return async () => {
        await s.fs.promises.writeFile(pack, bytes);
        await s.fs.promises.writeFile(idx, index);
      };
    }));

  it('a missing ctxgit marker', () =>
    corrupt('E_VERIFY_NOT_CTXGIT', async () => {
      const file = `${s.gitdir}/ctxgit.json`;
      const bytes = await s.fs.promises.readFile(file);
      await s.fs.promises.unlink(file);
      return () => s.fs.promises.writeFile(file, bytes);
    }));

  it('a stale lock and a temp object are warnings, not errors', async () => {
    const lock = `${s.gitdir}/${dagRef}.lock`;
    const tmp = `${s.gitdir}/objects/00/tmp_obj_left`;
    await s.fs.promises.writeFile(lock, 'x');
    await s.fs.promises.mkdir(`${s.gitdir}/objects/00`, { recursive: true });
    await s.fs.promises.writeFile(tmp, 'x');
    const r = await verifyRepo(repo);
    await s.fs.promises.unlink(lock);
    await s.fs.promises.unlink(tmp);
    expect(r.ok).toBe(true);
    expect(r.issues.map((i) => `${i.severity} ${i.code} ${i.path}`).sort()).toEqual([`warning E_VERIFY_STALE_LOCK ${dagRef}.lock`, 'warning E_VERIFY_TEMP_FILE objects/00/tmp_obj_left']);
  });

  it('never throws on a repository whose refs point anywhere (fuzzed)', async () => {
    const oids = [b.folded.id, b.last.id, (await readRef(ctx, dagRef)) as string, await writeBlob(ctx, 'x'), 'e'.repeat(40)];
    const refs = [dagRef, contextRef, 'refs/ctxgit/sessions/alt/context', 'refs/ctxgit/sessions/chat/config'];
    const old = await Promise.all(refs.map(async (r) => (await readRef(ctx, r)) as string));
    for (let i = 0; i < 10; i++) {
      const ref = refs[i % refs.length] as string;
      await forceRef(s, ref, oids[(i * 7) % oids.length] as string);
      const r = await verifyRepo(repo, { previous: null });
      expect(typeof r.ok).toBe('boolean');
    }
    for (const [i, r] of refs.entries()) await forceRef(s, r, old[i] as string);
    expect((await verifyRepo(repo, { previous: null })).ok).toBe(true);
  });
});
