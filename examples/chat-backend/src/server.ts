// A chat backend over HTTP (fastify) that feeds the model through ctxgit: every model call is made from a ContextCommit,
// rendered for the configured provider and sent with the official SDK; the reply is appended to the DAG and the
// provider's reported usage becomes the occupancy measurement.
import type { ContextCommit, Repo, Session } from '@ctxgit/commit';
import type { Node } from '@ctxgit/dag';
import { render } from '@ctxgit/render';
import { createViewer } from '@ctxgit/viewer';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponse, HttpError } from './http-error.js';
import type { ModelClient } from './model-client.js';

/** Options of {@link buildServer}. */
export interface ServerOptions {
  readonly repo: Repo;
  readonly client: ModelClient;
  /** Model of new sessions, `provider:model`. @defaultValue per provider: `openai:gpt-4o` / `anthropic:claude-sonnet-4-5` */
  readonly model?: string;
  /** `max_tokens` of Anthropic requests. @defaultValue 1024 */
  readonly maxTokens?: number;
}

type Body = { readonly [key: string]: unknown };

const str = (body: Body, key: string, optional = false): string | undefined => {
  const v = body[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', `body.${key} must be a non-empty string`, { field: key });
  return v;
};

const int = (body: Body, key: string): number | undefined => {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', `body.${key} must be a positive integer`, { field: key });
  return v;
};

const bodyOf = (raw: unknown): Body => {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', 'the body must be a JSON object', {});
  return raw as Body;
};

/** Builds the server; `listen` is the caller's. */
export function buildServer(opts: ServerOptions): FastifyInstance {
  const { repo, client } = opts;
  const model = opts.model ?? (client.provider === 'anthropic' ? 'anthropic:claude-sonnet-4-5' : 'openai:gpt-4o');
  const open = new Map<string, Session>();
  const queues = new Map<string, Promise<unknown>>();
  const app = Fastify({ logger: false });

  /**
   * Runs the writes of one request on a session after those of earlier requests: a turn (append, commit, model call,
   * append) is never interleaved with another on the same session in this process. (Across processes, the loser of
   * a race gets E_COMMIT_CONFLICT, a 409, and nothing of its call is written.)
   */
  const serial = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const run = (queues.get(name) ?? Promise.resolve()).then(fn);
    const settled = run.catch(() => undefined);
    queues.set(name, settled);
    void settled.then(() => {
      if (queues.get(name) === settled) queues.delete(name);
    });
    return run;
  };

  /** One Session object per name, so that recorded usage (kept in memory by the Session) survives across requests. */
  const session = async (name: string): Promise<Session> => {
    const hit = open.get(name);
    if (hit !== undefined) return hit;
    const s = await repo.openSession(name);
    open.set(name, s);
    return s;
  };

  /** Commits the head, renders it for the provider, calls the model, appends the reply and records the usage. */
  const answer = async (s: Session): Promise<{ commit: ContextCommit; reply: Node; usage: unknown }> => {
    const commit = await s.commit();
    const reply =
      client.provider === 'anthropic'
        ? await client.complete(render(commit, { provider: 'anthropic', maxTokens: opts.maxTokens ?? 1024 }))
        : await client.complete(render(commit, { provider: 'openai-chat' }));
    const node = await s.append({ role: 'assistant', output: reply.text });
    await s.recordUsage({ head: commit.id, ...reply.usage });
    return { commit, reply: node, usage: reply.usage };
  };

  // The web viewer at `/` (read-only), over the same Session objects, so its occupancy ring shows the measured usage;
  // every turn is pushed to the open pages as a server-sent event.
  const viewer = createViewer({ repo, openSession: (name) => session(name) });

  const turn = async (s: Session): Promise<object> => {
    const { commit, reply, usage } = await answer(s);
    viewer.publish({ session: s.name, commit: commit.id });
    const siblings = await s.siblings(reply.id);
    return {
      reply: { id: reply.id, content: reply.output, siblings: { index: siblings.index, total: siblings.total } },
      commit: { id: commit.id, totalTokens: commit.totalTokens, summary: commit.summary },
      usage,
      occupancy: await s.occupancy(),
    };
  };

  /** The messages on the head's branch, oldest first, each with its `< index/total >` sibling position. */
  const messages = async (s: Session): Promise<object[]> => {
    const out = [];
    let id: string | null | undefined = await s.head();
    while (id !== null && id !== undefined) {
      const node = await repo.store.getNode(id);
      if (node === undefined) break;
      const sib = await s.siblings(node.id);
      out.push({ id: node.id, role: node.role, content: node.output, siblings: { index: sib.index, total: sib.total } });
      id = node.predecessor;
    }
    return out.reverse();
  };

  /** The newest descendant of a node along its latest children (what switching to a sibling shows). */
  const latestLeaf = async (id: string): Promise<string> => {
    for (;;) {
      const children = await repo.store.childrenOf(id);
      const last = children.at(-1);
      if (last === undefined) return id;
      id = last;
    }
  };

  const mount = (req: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack();
    viewer.handler(req.raw, reply.raw);
  };
  app.get('/', mount);
  app.get('/assets/*', mount);
  app.all('/api/*', mount); // the viewer refuses every method but GET and HEAD: read-only
  app.addHook('preClose', async () => viewer.close());

  app.setErrorHandler((err, _req, reply) => {
    const { status, body } = errorResponse(err);
    void reply.status(status).send(body);
  });

  app.post('/sessions', async (req, reply) => {
    const body = bodyOf(req.body);
    const name = str(body, 'name') as string;
    const window = int(body, 'window');
    const s = await repo.createSession(name, { model: str(body, 'model', true) ?? model, ...(window === undefined ? {} : { window }) });
    open.set(name, s);
    return reply.status(201).send({ session: s.name, model: s.model, window: s.window });
  });

  app.get('/sessions', async () => ({ sessions: await repo.listSessions() }));

  app.get<{ Params: { name: string } }>('/sessions/:name/messages', async (req) => ({ messages: await messages(await session(req.params.name)) }));

  app.post<{ Params: { name: string } }>('/sessions/:name/messages', async (req) => {
    const content = str(bodyOf(req.body), 'content') as string;
    return serial(req.params.name, async () => {
      const s = await session(req.params.name);
      await s.append({ role: 'user', output: content });
      return turn(s);
    });
  });

  // Another answer to the same question: back to the question, then a new call (the old answer stays, a sibling).
  app.post<{ Params: { name: string } }>('/sessions/:name/retry', async (req) =>
    serial(req.params.name, async () => {
      const s = await session(req.params.name);
      const head = await s.head();
      if (head === null) throw new HttpError(409, 'E_BACKEND_NOTHING_TO_RETRY', `session ${s.name} is empty`, {});
      const node = await repo.store.getNode(head);
      if (node?.role === 'assistant' && node.predecessor !== undefined) await s.checkout(node.predecessor);
      return turn(s);
    }),
  );

  // An edited question: a sibling of the original (which stays), then a new call.
  app.post<{ Params: { name: string } }>('/sessions/:name/edit', async (req) => {
    const body = bodyOf(req.body);
    const nodeId = str(body, 'nodeId') as string;
    const content = str(body, 'content') as string;
    return serial(req.params.name, async () => {
      const s = await session(req.params.name);
      const node = await repo.store.getNode(nodeId);
      if (node === undefined || node.role !== 'user') throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', `node ${nodeId} is not a user message`, { nodeId });
      await s.edit(nodeId, content);
      return turn(s);
    });
  });

  app.get<{ Params: { name: string; node: string } }>('/sessions/:name/siblings/:node', async (req) => {
    const s = await session(req.params.name);
    const p = await s.siblings(req.params.node);
    return { index: p.index, total: p.total, ids: p.ids, label: `< ${p.index}/${p.total} >` };
  });

  // `< N/M >`: show sibling `index` (1-based) of a node, with its latest continuation. Display-only: no model call.
  app.post<{ Params: { name: string } }>('/sessions/:name/switch', async (req) => {
    const body = bodyOf(req.body);
    const nodeId = str(body, 'nodeId') as string;
    const index = int(body, 'index');
    return serial(req.params.name, async () => {
      const s = await session(req.params.name);
      const p = await s.siblings(nodeId);
      const target = index === undefined ? undefined : p.ids[index - 1];
      if (target === undefined) throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', `body.index must be between 1 and ${p.total}`, { field: 'index', total: p.total });
      const commit = await s.checkout(await latestLeaf(target), { commit: true });
      return { head: await s.head(), commit: commit?.id ?? null, messages: await messages(s) };
    });
  });

  app.post<{ Params: { name: string } }>('/sessions/:name/fork', async (req, reply) => {
    const body = bodyOf(req.body);
    const name = str(body, 'name') as string;
    const at = str(body, 'at', true);
    const forked = await (await session(req.params.name)).fork(name, at === undefined ? {} : { at });
    open.set(name, forked);
    return reply.status(201).send({ session: forked.name, head: await forked.head() });
  });

  app.post<{ Params: { name: string } }>('/sessions/:name/attach', async (req) => {
    const body = bodyOf(req.body);
    const from = str(body, 'session') as string;
    const commit = str(body, 'commit', true);
    const node = await serial(req.params.name, async () => (await session(req.params.name)).attach({ session: from, ...(commit === undefined ? {} : { commit }) }));
    return { pointer: node.id };
  });

  app.post<{ Params: { name: string } }>('/sessions/:name/merge', async (req) => {
    const body = bodyOf(req.body);
    const peers = body['peers'];
    if (!Array.isArray(peers) || peers.length === 0 || !peers.every((p) => typeof p === 'string')) {
      throw new HttpError(400, 'E_BACKEND_BAD_REQUEST', 'body.peers must be a non-empty array of session names', { field: 'peers' });
    }
    const instruction = str(body, 'instruction', true);
    const c = await serial(req.params.name, () => repo.merge({ target: req.params.name, peers: peers as string[], ...(instruction === undefined ? {} : { instruction }) }));
    return { commit: c.id, parentIds: c.parentIds, totalTokens: c.totalTokens };
  });

  app.get<{ Params: { name: string } }>('/sessions/:name/occupancy', async (req) => (await session(req.params.name)).occupancy());

  app.get<{ Params: { name: string } }>('/sessions/:name/log', async (req) => ({
    commits: (await (await session(req.params.name)).log()).map((e) => ({
      id: e.id,
      parentIds: e.parentIds,
      turn: e.turn,
      headNodeId: e.headNodeId,
      totalTokens: e.totalTokens,
      subject: e.message.split('\n')[0] ?? '',
    })),
  }));

  return app;
}
