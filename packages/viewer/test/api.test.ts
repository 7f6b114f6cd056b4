// The viewer's HTTP API over a corpus-imported repository: every view, paging, and the refusals (read-only, foreign
// Host, unknown things, bad parameters). A real HTTP server on a loopback port; the figures are compared with what the
// public API of @ctxgit/commit says about the same repository.
import { request } from 'node:http';
import type { Repo } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartsView, CommitView, DagWindow, DiffView, ExpandView, OccupancyView, RenderView, SessionList, TimelinePage } from '../src/api-types.js';
import { buildCorpusRepo, serve } from './fixture.js';
import type { CorpusRepo, Served } from './fixture.js';

let fx: CorpusRepo;
let repo: Repo;
let srv: Served;

const get = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> => {
  const res = await fetch(`${srv.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
};
const ok = async <T>(path: string): Promise<T> => {
  const r = await get<T>(path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

beforeAll(async () => {
  fx = await buildCorpusRepo();
  repo = await openRepo({ dir: fx.dir });
  srv = await serve({ repo, allowedHosts: ['127.0.0.1', 'localhost'] });
});
afterAll(async () => srv.close());

describe('viewer API', () => {
  it('lists sessions with their figures, and searches them', async () => {
    const all = await ok<SessionList>('/api/sessions');
    expect(all.sessions.map((s) => s.name)).toEqual(['eps', 'eps-alt', 'simple']);
    const eps = all.sessions[0];
    const s = await repo.openSession('eps');
    const log = await s.log();
    expect(eps).toMatchObject({ model: 'openai:gpt-4o', commits: log[0]?.turn, tokens: log[0]?.totalTokens, window: 6000 });
    expect(all.sessions[1]?.forkedFrom?.session).toBe('eps');
    const found = await ok<SessionList>('/api/sessions?q=ALT');
    expect(found.sessions.map((x) => x.name)).toEqual(['eps-alt']);
    expect(found.total).toBe(3);
  });

  it('pages the timeline along first parents, newest first, without gaps or repeats', async () => {
    const log = await (await repo.openSession('eps')).log();
    const seen: string[] = [];
    let start: string | null | undefined;
    do {
      const page: TimelinePage = await ok<TimelinePage>(`/api/sessions/eps/timeline?limit=4${start ? `&start=${start}` : ''}`);
      expect(page.rows.length).toBeLessThanOrEqual(4);
      seen.push(...page.rows.map((r) => r.id));
      start = page.next;
    } while (start !== null);
    expect(seen).toEqual(log.map((e) => e.id));
    const first = await ok<TimelinePage>('/api/sessions/eps/timeline?limit=1');
    expect(first.rows[0]).toMatchObject({ turn: log[0]?.turn, totalTokens: log[0]?.totalTokens, prefixItems: log[0]?.summary.firstChangedIndex });
    expect(first.rows[0]?.subject).toBe(log[0]?.message.split('\n')[0]);
  });

  it('shows a window of the DAG with siblings, tool calls and the head; a sibling branch without moving anything', async () => {
    const s = await repo.openSession('eps');
    const head = await s.head();
    const win = await ok<DagWindow>('/api/sessions/eps/dag?limit=500');
    expect(win.head).toBe(head);
    expect(win.nodes.at(-1)?.id).toBe(head);
    expect(win.older).toBeNull();
    const retried = win.nodes.find((n) => n.id === fx.retried);
    expect(retried?.siblings).toEqual({ index: 1, total: 2, ids: [fx.retried, fx.retry] });
    expect(win.nodes.some((n) => n.calls.length > 0) || win.nodes.some((n) => n.role === 'assistant')).toBe(true);
    expect(win.nodes.find((n) => n.forks.includes('eps-alt'))).toBeDefined();
    const small = await ok<DagWindow>('/api/sessions/eps/dag?limit=3');
    expect(small.nodes.map((n) => n.id)).toEqual(win.nodes.slice(-3).map((n) => n.id));
    expect(small.older).toBe(win.nodes.at(-4)?.id);
    const alt = await ok<DagWindow>(`/api/sessions/eps/dag?limit=500&via=${fx.retry}`);
    expect(alt.tip).toBe(fx.retry);
    expect(alt.nodes.at(-1)?.siblings.index).toBe(2);
    expect(await s.head()).toBe(head);
  });

  it('opens a commit with its live items, renders it for every provider, and diffs it against its parent', async () => {
    const [latest] = await (await repo.openSession('eps')).log({ limit: 1 });
    const id = latest?.id ?? '';
    const c = await repo.readCommit(id);
    const view = await ok<CommitView>(`/api/commits/${id}`);
    expect(view.items.map((i) => i.key)).toEqual(c.items.filter((i) => i.state !== 'summarized').map((i) => i.key));
    expect(view.states['summary']).toBeGreaterThan(0);
    expect(view.states['summarized']).toBe(c.foldedItems);
    expect(view.totalTokens).toBe(c.totalTokens);
    for (const provider of ['anthropic', 'openai-chat', 'openai-responses', 'text']) {
      const r = await ok<RenderView>(`/api/commits/${id}/render?provider=${provider}`);
      expect(r.body.length).toBeGreaterThan(0);
    }
    const d = await ok<DiffView>(`/api/commits/${id}/diff`);
    expect(d.changes).toEqual((await repo.diff(c.parentIds[0] ?? '', c.id)).changes);
    expect(d.firstChangedIndex).toBe(c.summary.firstChangedIndex);
    expect(d.prefix.map((p) => p.provider)).toEqual(['anthropic', 'openai-chat', 'openai-responses', 'text']);
  });

  it('expands a summary to its originals, each verified against its recorded blob id', async () => {
    const [latest] = await (await repo.openSession('eps')).log({ limit: 1 });
    const c = await repo.readCommit(latest?.id ?? '');
    const summary = c.items.find((i) => i.state === 'summary');
    const ex = await ok<ExpandView>(`/api/sessions/eps/expand?commit=${c.id}&key=${encodeURIComponent(summary?.key ?? '')}`);
    const direct = await (await repo.openSession('eps')).expand(summary?.key ?? '', { commit: c.id });
    expect(ex.originals.map((o) => o.oid)).toEqual(direct.originals.map((o) => o.oid));
    expect(ex.originals.length).toBeGreaterThan(0);
    expect(ex.originals.every((o) => o.verified && o.rehash === o.oid)).toBe(true);
  });

  it('reports occupancy as session.occupancy() does, with a breakdown of the latest commit', async () => {
    const s = await repo.openSession('eps');
    const occ = await ok<OccupancyView>('/api/sessions/eps/occupancy');
    expect(occ.record).toEqual({ ...(await s.occupancy()) });
    const [latest] = await s.log({ limit: 1 });
    const b = occ.breakdown;
    expect(b.system + b.history + b.tools).toBe(latest?.totalTokens);
    expect(b.outputReserve).toBe(s.window - s.historyBudget);
  });

  it('charts tokens fed against the full branch, with costs at the model price', async () => {
    const charts = await ok<ChartsView>('/api/sessions/eps/charts');
    const log = await (await repo.openSession('eps')).log();
    expect(charts.points.map((p) => p.id)).toEqual(log.map((e) => e.id).reverse());
    expect(charts.usdPerMTok).toBe(2.5);
    const folded = charts.points.filter((p) => p.full > p.fed);
    expect(folded.length).toBeGreaterThan(0);
    for (const p of charts.points) expect(p.costFed).toBeCloseTo((p.fed * 2.5) / 1e6, 12);
    for (let i = 1; i < charts.points.length; i++) expect(charts.points[i]?.full).toBeGreaterThanOrEqual(charts.points[i - 1]?.full ?? 0);
  });

  it('is read-only, refuses a foreign Host, and answers unknown things and bad parameters with coded errors', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await get<{ error: { code: string } }>('/api/sessions', { method });
      expect([r.status, r.body.error.code]).toEqual([405, 'E_VIEWER_READ_ONLY']);
    }
    // fetch() cannot set Host: a DNS-rebinding page would reach us with its own name, so node:http plays it
    const host = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${srv.url}/api/sessions`, { headers: { host: 'attacker.example' } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(host.status).toBe(421);
    expect(JSON.parse(host.body)).toMatchObject({ error: { code: 'E_VIEWER_HOST' } });
    expect((await get('/api/sessions/nope/timeline')).status).toBe(404);
    expect((await get(`/api/commits/${'0'.repeat(40)}`)).status).toBe(404);
    expect((await get('/api/commits/xyz')).status).toBe(400);
    expect((await get('/api/sessions/eps/timeline?limit=0')).status).toBe(400);
    expect((await get('/api/sessions/eps/timeline?start=HEAD')).status).toBe(400);
    expect((await get('/api/nothing')).status).toBe(404);
    const page = await get<unknown>('/api/sessions');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
