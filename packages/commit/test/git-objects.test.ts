import { execFileSync } from 'node:child_process';
import * as nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CorruptObjectError, GitArgumentError, InvalidNameError, ObjectNotFoundError, ObjectTypeError } from '../src/git/errors.js';
import { hasObject } from '../src/git/has-object.js';
import { readBlob } from '../src/git/read-blob.js';
import { readCommitObject } from '../src/git/read-commit-object.js';
import { readTree } from '../src/git/read-tree.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { writeTree } from '../src/git/write-tree.js';
import type { TreeEntry } from '../src/git/tree-entry.js';
import { openGit } from '../src/git/open-git.js';
import { hashObject } from '../src/git/object-hash.js';
import { sha1Hex, sha1OneShot, sha1Streamed } from '../src/git/internal/sha1.js';
import { AUTHOR, FS_KINDS, fsckStrict, git, tempRepoDir } from './git-fixtures.js';

const HELLO = 'ce013625030ba8dba906f756967f9e9ca394464a'; // git hash-object of "hello\n"
const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe.each(FS_KINDS)('objects on $name', (kind) => {
  test('blobs have git ids and read back byte for byte', async () => {
    const ctx = await kind.open();
    expect(await writeBlob(ctx, 'hello\n')).toBe(HELLO);
    expect(await writeBlob(ctx, new Uint8Array(0))).toBe(EMPTY_BLOB);
    expect(await writeBlob(ctx, 'hello\n')).toBe(HELLO);
    expect(text(await readBlob(ctx, HELLO))).toBe('hello\n');
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const oid = await writeBlob(ctx, bytes);
    expect(await readBlob(ctx, oid)).toEqual(bytes);
    expect(await hasObject(ctx, oid)).toBe(true);
    expect(await hasObject(ctx, '0'.repeat(40))).toBe(false);
  });

  test('readBlob returns a copy: mutating it does not change later reads', async () => {
    const ctx = await kind.open();
    const first = await readBlob(ctx, await writeBlob(ctx, 'abc'));
    first[0] = 0;
    expect(text(await readBlob(ctx, await writeBlob(ctx, 'abc')))).toBe('abc');
  });

  test('trees are sorted the way git sorts them, whatever the input order', async () => {
    const ctx = await kind.open();
    const blob = await writeBlob(ctx, 'x');
    const sub = await writeTree(ctx, [{ mode: '100644', path: 'f', oid: blob, type: 'blob' }]);
    const entries: TreeEntry[] = [
      { mode: '100644', path: 'a.b', oid: blob, type: 'blob' },
      { mode: '040000', path: 'a', oid: sub, type: 'tree' },
      { mode: '100644', path: 'a-', oid: blob, type: 'blob' },
      { mode: '100644', path: 'B', oid: blob, type: 'blob' },
    ];
    const tree = await writeTree(ctx, entries);
    expect(await writeTree(ctx, [...entries].reverse())).toBe(tree);
    // 'a' is a tree, so it sorts as 'a/' after 'a-' and 'a.b'
    expect((await readTree(ctx, tree)).map((e) => e.path)).toEqual(['B', 'a-', 'a.b', 'a']);
    expect((await readTree(ctx, tree))[3]).toEqual({ mode: '040000', path: 'a', oid: sub, type: 'tree' });
    expect(tree).toBe('3d5a14ab606e9013ac2823a9ee38a47386077db2');
  });

  test('commits round-trip and have fixed ids for fixed input', async () => {
    const ctx = await kind.open();
    const tree = await writeTree(ctx, [{ mode: '100644', path: 'hello.txt', oid: await writeBlob(ctx, 'hello\n'), type: 'blob' }]);
    const root = await writeCommit(ctx, { tree, parents: [], message: 'first\n\nBody line.\n', author: AUTHOR });
    const child = await writeCommit(ctx, {
      tree,
      parents: [root],
      message: 'second',
      author: AUTHOR,
      committer: { ...AUTHOR, name: 'other', timestamp: 1_700_000_100, timezoneOffset: 330 },
    });
    const read = await readCommitObject(ctx, child);
    expect(read).toEqual({
      oid: child,
      tree,
      parents: [root],
      message: 'second',
      author: AUTHOR,
      committer: { ...AUTHOR, name: 'other', timestamp: 1_700_000_100, timezoneOffset: 330 },
    });
    expect((await readCommitObject(ctx, root)).message).toBe('first\n\nBody line.\n');
    expect([root, child]).toEqual(['f46e03aa9a0a0c5b8ce33799d5b92b81b8c1d765', '819ab3d4dec53eaa9bb3abb5867e90364a19d2d0']);
  });

  test('bad input is refused before anything is written', async () => {
    const ctx = await kind.open();
    const blob = await writeBlob(ctx, 'x');
    const entry = (path: string): TreeEntry => ({ mode: '100644', path, oid: blob, type: 'blob' });
    for (const path of ['', '.', '..', '.git', '.GIT', '.git.', 'git~1', 'a/b', 'a\\b', 'a\0b', '\ud800']) {
      await expect(writeTree(ctx, [entry(path)])).rejects.toBeInstanceOf(InvalidNameError);
    }
    await expect(writeTree(ctx, [entry('a'), entry('a')])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(writeTree(ctx, [{ mode: '040000', path: 'a', oid: blob, type: 'blob' }])).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
    await expect(writeTree(ctx, [{ ...entry('a'), oid: 'ABC' }])).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
    await expect(writeBlob(ctx, 'lone \udc00')).rejects.toBeInstanceOf(GitArgumentError);
    const tree = await writeTree(ctx, [entry('a')]);
    await expect(writeCommit(ctx, { tree, parents: ['1'.repeat(40)], message: 'm', author: AUTHOR })).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(writeCommit(ctx, { tree: '2'.repeat(40), parents: [], message: 'm', author: AUTHOR })).rejects.toBeInstanceOf(ObjectNotFoundError);
    for (const author of [
      { ...AUTHOR, name: 'a <b>' },
      { ...AUTHOR, email: 'x\ny' },
      { ...AUTHOR, name: ' ' },
      { ...AUTHOR, timestamp: 1.5 },
      { ...AUTHOR, timestamp: -1 },
      { ...AUTHOR, timezoneOffset: 10_000 },
    ]) {
      await expect(writeCommit(ctx, { tree, parents: [], message: 'm', author })).rejects.toBeInstanceOf(GitArgumentError);
    }
    await expect(writeCommit(ctx, { tree, parents: [], message: 'a\0b', author: AUTHOR })).rejects.toBeInstanceOf(GitArgumentError);
    const c = await writeCommit(ctx, { tree, parents: [], message: 'm', author: AUTHOR });
    await expect(writeCommit(ctx, { tree, parents: [c, c], message: 'm', author: AUTHOR })).rejects.toBeInstanceOf(GitArgumentError);
  });

  test('reading the wrong type, a missing object or a damaged one is a typed error', async () => {
    const ctx = await kind.open();
    const blob = await writeBlob(ctx, 'x');
    const tree = await writeTree(ctx, [{ mode: '100644', path: 'x', oid: blob, type: 'blob' }]);
    await expect(readTree(ctx, blob)).rejects.toBeInstanceOf(ObjectTypeError);
    await expect(readBlob(ctx, tree)).rejects.toMatchObject({ code: 'E_GIT_WRONG_OBJECT_TYPE', data: { expected: 'blob', actual: 'tree' } });
    await expect(readCommitObject(ctx, tree)).rejects.toBeInstanceOf(ObjectTypeError);
    await expect(readBlob(ctx, '3'.repeat(40))).rejects.toMatchObject({ code: 'E_GIT_OBJECT_NOT_FOUND' });
    await expect(readBlob(ctx, 'nope')).rejects.toBeInstanceOf(GitArgumentError);
    // an object file whose bytes do not hash to its name (a fresh context, so no cache hides it)
    const fresh = await kind.open();
    const oid = 'ab'.padEnd(40, '0');
    await fresh.fs.promises.mkdir(`${fresh.gitdir}/objects/ab`, { recursive: true });
    await fresh.fs.promises.writeFile(`${fresh.gitdir}/objects/ab/${oid.slice(2)}`, new Uint8Array([1, 2, 3]));
    await expect(readBlob(fresh, oid)).rejects.toBeInstanceOf(CorruptObjectError);
  });

  test('the empty tree is readable without being stored', async () => {
    const ctx = await kind.open();
    expect(await readTree(ctx, '4b825dc642cb6eb9a060e54bf8d69288fbee4904')).toEqual([]);
    expect(await writeTree(ctx, [])).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  test('property: any tree of blobs round-trips', async () => {
    const ctx = await kind.open();
    const name = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9._ -]{0,20}$/u);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.record({ path: name, data: fc.string({ unit: 'grapheme', maxLength: 50 }) }), { selector: (e) => e.path, maxLength: 12 }), async (files) => {
        const entries: TreeEntry[] = [];
        for (const f of files) entries.push({ mode: '100644', path: f.path, oid: await writeBlob(ctx, f.data), type: 'blob' });
        const tree = await writeTree(ctx, entries);
        const back = await readTree(ctx, tree);
        expect([...back].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([...entries].sort((a, b) => (a.path < b.path ? -1 : 1)));
        for (const e of back) expect(text(await readBlob(ctx, e.oid))).toBe(files.find((f) => f.path === e.path)?.data);
      }),
      { numRuns: 40, seed: 42 },
    );
  });
});

describe('objects are what the git binary writes and reads', () => {
  const kind = FS_KINDS.find((k) => k.name === 'disk');
  if (kind === undefined) throw new Error('no disk kind');

  test('same ids as git hash-object, mktree and commit-tree; fsck --strict clean', async () => {
    const ctx = await kind.open();
    const data = 'some text\nwith lines\n';
    const blob = await writeBlob(ctx, data);
    expect(git(ctx, ['hash-object', '--stdin'], data).trim()).toBe(blob);
    expect(git(ctx, ['cat-file', '-p', blob])).toBe(data);
    const sub = await writeTree(ctx, [{ mode: '100644', path: 'inner.json', oid: blob, type: 'blob' }]);
    const tree = await writeTree(ctx, [
      { mode: '100644', path: 'z.txt', oid: blob, type: 'blob' },
      { mode: '040000', path: 'dir', oid: sub, type: 'tree' },
      { mode: '100644', path: 'dir.txt', oid: blob, type: 'blob' },
    ]);
    const listing = git(ctx, ['ls-tree', tree]);
    expect(listing).toBe(`100644 blob ${blob}\tdir.txt\n040000 tree ${sub}\tdir\n100644 blob ${blob}\tz.txt\n`);
    expect(git(ctx, ['mktree'], listing).trim()).toBe(tree);
    const commit = await writeCommit(ctx, { tree, parents: [], message: 'subject\n\nbody\n', author: AUTHOR });
    const env = { GIT_AUTHOR_NAME: AUTHOR.name, GIT_AUTHOR_EMAIL: AUTHOR.email, GIT_AUTHOR_DATE: '1700000000 +0100', GIT_COMMITTER_NAME: AUTHOR.name, GIT_COMMITTER_EMAIL: AUTHOR.email, GIT_COMMITTER_DATE: '1700000000 +0100' };
    const { execFileSync } = await import('node:child_process');
    const native = execFileSync('git', ['--git-dir', ctx.gitdir, 'commit-tree', tree], { input: 'subject\n\nbody\n', encoding: 'utf8', env: { ...process.env, ...env } }).trim();
    expect(commit).toBe(native);
    expect(git(ctx, ['show', `${commit}:dir/inner.json`])).toBe(data);
    const other = await writeCommit(ctx, { tree, parents: [], message: 'other\n', author: AUTHOR });
    const merge = await writeCommit(ctx, { tree, parents: [commit, other], message: 'merge\n', author: AUTHOR });
    expect(git(ctx, ['rev-list', '--parents', '-n', '1', merge]).trim().split(' ')).toHaveLength(3);
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  });

  test('concurrent writes into one fan-out directory make it once (a crash test counts the writes)', async () => {
    const nodeFs = await import('node:fs');
    const made: string[] = [];
    const promises = new Proxy(nodeFs.promises, {
      get: (t, key, receiver) =>
        key === 'mkdir' ? (path: string, opts: { recursive: true }) => (made.push(path), t.mkdir(path, opts)) : Reflect.get(t, key, receiver),
    });
    const ctx = await openGit({ dir: await tempRepoDir(), fs: { promises }, fsync: false });
    made.length = 0;
    // 300 blobs over 256 fan-out directories: some share one
    const oids = await Promise.all(Array.from({ length: 300 }, (_, i) => writeBlob(ctx, `blob ${i}\n`)));
    const dirs = new Set(oids.map((oid) => oid.slice(0, 2)));
    expect(dirs.size).toBeLessThan(oids.length);
    expect(made.filter((p) => p.includes('/objects/')).sort()).toEqual([...dirs].map((d) => `${ctx.gitdir}/objects/${d}`).sort());
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  });

  test('objects stay readable after git gc packs them', async () => {
    const ctx = await kind.open();
    const blob = await writeBlob(ctx, 'packed soon\n');
    const tree = await writeTree(ctx, [{ mode: '100644', path: 'p.txt', oid: blob, type: 'blob' }]);
    const commit = await writeCommit(ctx, { tree, parents: [], message: 'p\n', author: AUTHOR });
    git(ctx, ['update-ref', 'refs/ctxgit/keep', commit]);
    git(ctx, ['gc', '--quiet', '--prune=now']);
    expect(git(ctx, ['count-objects', '-v'])).toMatch(/^count: 0$/mu);
    const reopened = await kind.open();
    const same = { ...reopened, gitdir: ctx.gitdir };
    expect(text(await readBlob(same, blob))).toBe('packed soon\n');
    expect((await readTree(same, tree))[0]?.oid).toBe(blob);
    expect((await readCommitObject(same, commit)).tree).toBe(tree);
    expect(await hasObject(same, commit)).toBe(true);
  });
});

describe('object ids', () => {
  test('property: the one-shot digest and the plain one agree on any parts, and hashObject is git hash-object', () => {
    // a runtime without crypto.hash (before Node 20.12) has the plain path only
    const hash = (nodeCrypto as { hash?: Parameters<typeof sha1OneShot>[0] }).hash;
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 4 }), (parts) => {
        if (hash !== undefined) expect(sha1OneShot(hash, parts)).toBe(sha1Streamed(parts));
        expect(sha1Hex(parts)).toBe(sha1Streamed(parts));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const plain = sha1Streamed([Buffer.from(`blob ${Buffer.byteLength(s)}\0`, 'latin1'), Buffer.from(s, 'utf8')]);
        expect(hashObject('blob', s)).toBe(plain);
        expect(hashObject('blob', Buffer.from(s, 'utf8'))).toBe(plain);
      }),
    );
    expect(hashObject('blob', 'hello\n')).toBe(HELLO);
    expect(hashObject('blob', 'é\n')).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: 'é\n', encoding: 'utf8' }).trim());
  });
});
