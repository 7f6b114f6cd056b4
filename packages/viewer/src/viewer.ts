import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Repo, Session } from '@ctxgit/commit';
import { FullHistory } from './api/full-history.js';
import type { ViewerContext } from './api/viewer-context.js';
import { notFound, ViewerError } from './errors.js';
import { apiRoute } from './http/api-routes.js';
import { EventStream } from './http/event-stream.js';
import type { TurnEvent } from './http/event-stream.js';
import { sendError, sendJson } from './http/send.js';
import { StaticAssets } from './http/static-assets.js';
import { DEFAULT_PRICES } from './prices.js';
import type { PriceTable } from './prices.js';

/** Options of {@link createViewer}. */
export interface ViewerOptions {
  /** The repository shown. Nothing is ever written to it. */
  readonly repo: Repo;
  /**
   * Opens a session by name. An embedding backend passes its own, so that the occupancy it shows is the record its
   * sessions return (measured once a provider's usage was recorded). @defaultValue `repo.openSession(name)`, kept
   * per name for the life of the viewer
   */
  readonly openSession?: (name: string) => Promise<Session>;
  /** Directory of the built front-end. @defaultValue the bundle built into this package's `dist/web` */
  readonly assetsDir?: string;
  /** Input prices of the cost chart, USD per million tokens by `"provider:model"`. @defaultValue {@link DEFAULT_PRICES} */
  readonly prices?: PriceTable;
  /**
   * Host names a request's `Host` header may carry (without port); any other is refused with 421, so that a web page
   * elsewhere cannot read the viewer through DNS rebinding. @defaultValue any host
   */
  readonly allowedHosts?: readonly string[];
}

/** A mounted viewer: a `node:http` request handler, and the feed of its live updates. */
export interface Viewer {
  /**
   * Answers a request: `GET /` and `/assets/…` (the front-end), `GET /api/…` (JSON), `GET /api/events`
   * (server-sent events). Any other method is refused with 405: the viewer is read-only.
   */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Tells the open pages that a turn landed, so they reload what changed. */
  publish(event: TurnEvent): void;
  /** Ends the open event streams (call before closing the HTTP server). */
  close(): void;
}

/**
 * Creates the web viewer of a repository: sessions, the DAG of a session, the context timeline, commits with their
 * items, renders and diffs, summaries expanded and verified, occupancy and charts. Read-only; serve it on loopback
 * (`ctxgit serve` does) or mount it in a backend.
 *
 * @param options - the repository and how to open its sessions; see {@link ViewerOptions}
 * @returns the viewer
 * @throws {@link ViewerError} `E_VIEWER_NO_ASSETS` when the front-end bundle was not built
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const viewer = createViewer({ repo: await openRepo({ dir: '.ctxgit' }), allowedHosts: ['127.0.0.1', 'localhost'] });
 * createServer(viewer.handler).listen(4173, '127.0.0.1');
 * ```
 */
export function createViewer(options: ViewerOptions): Viewer {
  const { repo } = options;
  const assets = new StaticAssets(options.assetsDir ?? fileURLToPath(new URL('../dist/web/', import.meta.url)));
  const events = new EventStream();
  const opened = new Map<string, Promise<Session>>();
  const openSession =
    options.openSession ??
    ((name: string): Promise<Session> => {
      let s = opened.get(name);
      if (s === undefined) {
        s = repo.openSession(name);
        opened.set(name, s);
        s.catch(() => opened.delete(name));
      }
      return s;
    });
  const ctx: ViewerContext = { repo, session: openSession, fullHistory: new FullHistory(repo), prices: options.prices ?? DEFAULT_PRICES };
  const hosts = options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts.map((h) => h.toLowerCase()));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(`http://viewer.invalid${req.url ?? '/'}`);
    if (hosts !== undefined) {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      if (!hosts.has(host)) throw new ViewerError('E_VIEWER_HOST', `host ${JSON.stringify(host)} is not served here`, { status: 421, host });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      throw new ViewerError('E_VIEWER_READ_ONLY', `the viewer is read-only: ${String(req.method)} is not allowed`, { status: 405 });
    }
    if (url.pathname === '/api/events') return events.open(res);
    if (url.pathname.startsWith('/api/')) return sendJson(res, 200, await apiRoute(ctx, url.pathname, url.searchParams));
    if (!assets.serve(url.pathname, res)) throw notFound(`file ${url.pathname}`);
  };

  return {
    handler: (req, res) => {
      handle(req, res).catch((err: unknown) => sendError(res, err));
    },
    publish: (event) => events.publish(event),
    close: () => events.close(),
  };
}
