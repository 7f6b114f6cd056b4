import type { ProviderName } from '@ctxgit/render';
import { chartsView } from '../api/charts.js';
import { commitView } from '../api/commit-view.js';
import { dagWindow } from '../api/dag-window.js';
import { diffView } from '../api/diff-view.js';
import { expandView } from '../api/expand-view.js';
import { listSessions } from '../api/list-sessions.js';
import { occupancyView } from '../api/occupancy-view.js';
import { PROVIDERS, renderView } from '../api/render-view.js';
import { timelinePage } from '../api/timeline.js';
import type { ViewerContext } from '../api/viewer-context.js';
import { badParam, notFound } from '../errors.js';
import { Query } from './query.js';

/** Most rows one page of the timeline, the DAG window or the charts may hold. */
const MAX_PAGE = 2_000;

/** Answers `GET /api/…`: the JSON document of a path, or throws (a `ViewerError`, or the error of a package). */
export async function apiRoute(ctx: ViewerContext, path: string, params: URLSearchParams): Promise<unknown> {
  const q = new Query(params);
  const parts = path.split('/').slice(2).map(decodeURIComponent); // '' 'api' …
  const [kind, name, view] = parts;
  if (kind === 'sessions' && parts.length === 1) return listSessions(ctx, q.text('q') ?? '');
  if (kind === 'sessions' && name !== undefined && parts.length === 3) {
    if (view === 'timeline') return timelinePage(ctx, name, q.oid('start'), q.int('limit', 100, MAX_PAGE));
    if (view === 'dag') {
      const tip = q.text('tip');
      const via = q.text('via');
      return dagWindow(ctx, name, { limit: q.int('limit', 60, MAX_PAGE), ...(tip === undefined ? {} : { tip }), ...(via === undefined ? {} : { via }) });
    }
    if (view === 'occupancy') return occupancyView(ctx, name);
    if (view === 'charts') return chartsView(ctx, name, q.int('limit', 300, MAX_PAGE));
    if (view === 'expand') return expandView(ctx, name, q.requiredOid('commit'), q.required('key'));
  }
  if (kind === 'commits' && name !== undefined) {
    const id = new Query(new URLSearchParams({ id: name })).requiredOid('id');
    if (parts.length === 2) return commitView(ctx, id);
    if (view === 'diff' && parts.length === 3) return diffView(ctx, id);
    if (view === 'render' && parts.length === 3) {
      const provider = q.text('provider') ?? 'anthropic';
      if (!(PROVIDERS as readonly string[]).includes(provider)) throw badParam('provider', provider, `one of ${PROVIDERS.join(', ')}`);
      return renderView(await ctx.repo.readCommit(id), provider as ProviderName);
    }
  }
  throw notFound(`API path ${path}`);
}
