import { describe, expect, it } from 'vitest';
import type { CatalogueTool } from '@ctxgit/rules';
import { OPEN_TOOLS, ToolCatalogueError } from '@ctxgit/rules';
import { openRepo, verifyRepo } from '../src/index.js';
import { listTree, readCommitObject, readPath, readRef } from '../src/git/index.js';
import type { Repo, Session } from '../src/index.js';
import { FS_KINDS, git, snapshot, stepClock } from './helpers.js';

const scans = ['port_scan', 'ping_sweep', 'os_detect', 'service_probe', 'vuln_scan', 'tls_check', 'banner_grab', 'web_crawl', 'dir_bust'];
const CATALOGUE: CatalogueTool[] = [
  ...scans.map((n) => ({ path: `security/scan/${n}`, description: `Run ${n.replace('_', ' ')} against a host.`, parameters: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] } })),
  { path: 'files/read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { path: 'files/write_file', description: 'Write a file.' },
  { path: 'net/dns/dns_lookup', description: 'Resolve a domain name.' },
];

/** One round of the model: the user asks, the assistant calls `name`, the backend resolves and records the call. */
async function call(s: Session, name: string, input: Record<string, unknown>, output = 'done'): Promise<string> {
  const a = await s.append({ role: 'assistant', output: '' });
  const r = await s.resolveToolCall({ name, input });
  const text = r.kind === 'navigation' || r.kind === 'unknown' ? r.output : output;
  await s.append({ role: 'tool', name, input: input as never, output: text, caller: a.id, metadata: { callId: `call_${a.id}` } });
  return r.kind;
}

for (const kind of FS_KINDS) {
  describe(`tool catalogue storage (${kind.name})`, () => {
    it('stores the catalogue as a tree of tool blobs and each commit’s view under tools/; git fsck --strict is clean', async () => {
      const { repo, fs, gitdir } = await kind.open();
      const s = await repo.createSession('t', { model: 'openai:gpt-4o', tools: CATALOGUE });
      await s.append({ role: 'user', output: 'Run a port scan of 10.0.0.7' });
      const c1 = await s.commit();
      expect(c1.tools?.advertised.map((t) => t.name)).toContain('port_scan');
      expect(c1.tools?.advertised.at(-1)?.name).toBe(OPEN_TOOLS);
      expect(c1.tools?.advertised.length).toBeLessThanOrEqual(8);
      const tree = (await readCommitObject(repo.git, c1.id)).tree;
      const catalogueTree = await readPath(repo.git, tree, ['tools', 'catalogue']);
      expect(catalogueTree).toBe(c1.tools?.catalogue);
      expect((await listTree(repo.git, catalogueTree as string, ['security', 'scan'])).map((e) => e.path)).toContain('port_scan.json');
      expect(await readPath(repo.git, tree, ['tools', 'view.json'])).toBeDefined();
      // the view round-trips through git
      const reopened = await openRepo({ dir: gitdir, fs, clock: stepClock(), fsync: false });
      expect(await reopened.readCommit(c1.id)).toEqual(c1);
      expect((await repo.readCommit(c1.id)).tools).toEqual(c1.tools);

      expect(await call(s, 'port_scan', { host: '10.0.0.7' })).toBe('advertised');
      await s.append({ role: 'user', output: 'thanks' });
      const c2 = await s.commit();
      expect(c2.tools?.catalogue).toBe(c1.tools?.catalogue); // the catalogue tree is shared
      expect(c2.tools?.advertised).toEqual(c1.tools?.advertised); // nothing asked for a change
      const report = await verifyRepo(repo);
      expect(report.issues).toEqual([]);
      if (kind.name === 'disk') {
        expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
        expect(git(gitdir, 'show', `${c2.id}:tools/catalogue/security/scan/port_scan.json`)).toContain('"path":"security/scan/port_scan"');
        expect(git(gitdir, 'log', '--format=%s', 'refs/ctxgit/sessions/t/tools')).toContain('tools t: 12 tool(s) in 5 group(s)');
      }
    });

    it('shares unchanged tool blobs between catalogues and commits', async () => {
      const { repo } = await kind.open();
      const s = await repo.createSession('t', { model: 'openai:gpt-4o', tools: CATALOGUE });
      await s.append({ role: 'user', output: 'read the file a.txt' });
      const c1 = await s.commit();
      const changed = CATALOGUE.map((t) => (t.path === 'files/write_file' ? { ...t, description: 'Write a file, creating it.' } : t));
      await s.setTools(changed);
      await s.append({ role: 'assistant', output: 'ok' });
      await s.append({ role: 'user', output: 'and now?' });
      const c2 = await s.commit();
      expect(c2.tools?.catalogue).not.toBe(c1.tools?.catalogue);
      const blobs = async (tree: string): Promise<Map<string, string>> => {
        const out = new Map<string, string>();
        for (const g of [['files'], ['security', 'scan'], ['net', 'dns']]) for (const e of await listTree(repo.git, tree, g)) out.set(`${g.join('/')}/${e.path}`, e.oid);
        return out;
      };
      const [a, b] = [await blobs(c1.tools?.catalogue as string), await blobs(c2.tools?.catalogue as string)];
      const differ = [...a.keys()].filter((k) => a.get(k) !== b.get(k));
      expect(differ).toEqual(['files/write_file.json']);
      const scanTree = async (tree: string): Promise<string | undefined> => readPath(repo.git, tree, ['security']);
      expect(await scanTree(c2.tools?.catalogue as string)).toBe(await scanTree(c1.tools?.catalogue as string)); // whole unchanged groups too
      expect(await s.setTools([...changed].reverse())).toBeDefined(); // same set: no new catalogue commit
      expect((await readCommitObject(repo.git, (await readRef(repo.git, 'refs/ctxgit/sessions/t/tools')) as string)).parents).toHaveLength(1);
    });

    it('keeps the catalogue of a session whose name is not a ref component under its encoded name, as the other refs', async () => {
      const { repo, gitdir } = await kind.open();
      const s = await repo.createSession('ops%team', { model: 'openai:gpt-4o', tools: CATALOGUE });
      await s.append({ role: 'user', output: 'Run a port scan of 10.0.0.7' });
      const c = await s.commit();
      expect(c.tools?.advertised.map((t) => t.name)).toContain('port_scan');
      expect(await readRef(repo.git, 'refs/ctxgit/sessions/ops%25team/tools')).not.toBeNull();
      expect((await (await repo.openSession('ops%team')).commit()).tools?.catalogue).toBe(c.tools?.catalogue);
      expect((await verifyRepo(repo)).issues).toEqual([]);
      if (kind.name === 'disk') expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    });

    it('refuses a bad catalogue before writing anything', async () => {
      const { repo, fs, gitdir } = await kind.open();
      const bad: CatalogueTool[] = [...CATALOGUE, { path: 'other/read_file' }];
      const before = await snapshot(fs, gitdir);
      await expect(repo.createSession('t', { model: 'openai:gpt-4o', tools: bad })).rejects.toMatchObject({ code: 'E_RULES_TOOL_CATALOGUE', data: { tool: 'other/read_file', problem: 'duplicate_name' } });
      expect(await repo.listSessions()).toEqual([]);
      expect(await snapshot(fs, gitdir)).toEqual(before);
      const s = await repo.createSession('t', { model: 'openai:gpt-4o' });
      const after = await snapshot(fs, gitdir);
      for (const tools of [bad, [{ path: 'g/x', parameters: { type: 'object', required: ['nope'], properties: {} } }], [{ path: `g/${'n'.repeat(65)}` }]]) {
        await expect(s.setTools(tools)).rejects.toBeInstanceOf(ToolCatalogueError);
      }
      expect(await snapshot(fs, gitdir)).toEqual(after);
      expect(await s.tools()).toBeUndefined();
      await s.append({ role: 'user', output: 'hello' });
      expect((await s.commit()).tools).toBeUndefined(); // no catalogue: no tools/ folder, render unchanged
    });
  });
}

describe('tools across a session', () => {
  async function fresh(): Promise<{ repo: Repo; s: Session }> {
    const repo = await openRepo({ memory: true, clock: stepClock() });
    return { repo, s: await repo.createSession('t', { model: 'anthropic:claude-sonnet-4-5', tools: CATALOGUE }) };
  }

  it('a navigation round opens a group at the next commit; the DAG records the call like any other', async () => {
    const { s } = await fresh();
    await s.append({ role: 'user', output: 'hello' });
    const c1 = await s.commit();
    expect(c1.tools?.advertised.map((t) => t.name)).toEqual([OPEN_TOOLS]);
    expect(await call(s, OPEN_TOOLS, { open: 'files' })).toBe('navigation');
    const c2 = await s.commit();
    expect(c2.tools?.advertised.map((t) => t.name)).toEqual(['read_file', 'write_file', OPEN_TOOLS]);
    const nav = c2.items.find((i) => i.role === 'tool');
    expect(nav?.blocks[1]).toMatchObject({ type: 'tool_result', name: OPEN_TOOLS, output: expect.stringContaining('Opened files: read_file') });
    // a known name that is not advertised runs in the same round; its group waits for the next change of the view
    expect(await call(s, 'dns_lookup', { name: 'example.com' })).toBe('opened');
    const c3 = await s.commit();
    expect(c3.tools?.advertised).toEqual(c2.tools?.advertised);
    expect(c3.tools?.view.pending).toEqual(['net/dns/dns_lookup']);
    expect(await call(s, OPEN_TOOLS, { search: 'scan ports' })).toBe('navigation');
    const c4 = await s.commit();
    const names = c4.tools?.advertised.map((t) => t.name) ?? [];
    expect(names.slice(0, 3)).toEqual(['read_file', 'write_file', 'dns_lookup']); // the pending group joined this change, before the search
    expect(names[3]).toBe('port_scan'); // the search hits, best first
    expect(names.at(-1)).toBe(OPEN_TOOLS);
    // the commit a call was made with decides, not a later one
    expect(await s.resolveToolCall({ name: 'dns_lookup' }, { commit: c2.id })).toMatchObject({ kind: 'opened' });
    expect(await s.resolveToolCall({ name: 'dns_lookup' })).toMatchObject({ kind: 'advertised' });
  });

  it('with deferCalledGroups false, a known-name call opens its group at the next commit', async () => {
    const repo = await openRepo({ memory: true, clock: stepClock() });
    const s = await repo.createSession('t', { model: 'openai:gpt-4o', tools: CATALOGUE, toolView: { deferCalledGroups: false } });
    await s.append({ role: 'user', output: 'hello' });
    await s.commit();
    expect(await call(s, 'dns_lookup', { name: 'example.com' })).toBe('opened');
    expect((await s.commit()).tools?.advertised.map((t) => t.name)).toEqual(['dns_lookup', OPEN_TOOLS]);
    await expect(repo.openSession('t', { toolView: { maxBranches: 0 } })).rejects.toMatchObject({ code: 'E_RULES_BAD_INPUT' });
  });

  it('a fork starts with the same catalogue and view', async () => {
    const { s } = await fresh();
    await s.append({ role: 'user', output: 'read a file' });
    const c = await s.commit();
    const f = await s.fork('t2');
    expect((await f.tools())?.tools).toEqual((await s.tools())?.tools);
    await f.append({ role: 'assistant', output: 'sure' });
    await f.append({ role: 'user', output: 'go' });
    expect((await f.commit()).tools?.advertised).toEqual(c.tools?.advertised);
  });
});
