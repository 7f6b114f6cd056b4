import type { Session } from '@ctxgit/commit';
import type { Node } from '@ctxgit/dag';
import type { DagNode, DagWindow } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** Characters of a node's text the DAG view receives. */
const PREVIEW_CHARS = 280;

/** Where the window ends: a node of the branch, or a sibling to switch to (display-only: nothing moves). */
export interface DagWindowQuery {
  /** The newest node of the window. @defaultValue the session's head */
  readonly tip?: string;
  /** Show the branch through this node, continued along its newest children to a leaf. */
  readonly via?: string;
  /** Nodes of the branch (tool calls not counted). */
  readonly limit: number;
}

/**
 * The newest `limit` nodes of the branch ending at the tip, oldest first, each with its tool calls, sibling position,
 * attach or merge pointer and the sessions forked at it. A 10,000-turn session is read a window at a time.
 */
export async function dagWindow(ctx: ViewerContext, name: string, query: DagWindowQuery): Promise<DagWindow> {
  const session = await ctx.session(name);
  const record = await ctx.repo.store.getSession(name);
  const head = record?.head ?? null;
  let tip = query.tip ?? head;
  if (query.via !== undefined) tip = await latestLeaf(ctx, query.via);
  const forks = await forksByNode(ctx);
  const commits = new Map<string, string>();
  for (const e of await session.log({ limit: query.limit })) commits.set(e.headNodeId, e.id);
  const nodes: DagNode[] = [];
  let id: string | undefined = tip ?? undefined;
  while (id !== undefined && nodes.length < query.limit) {
    const node = await ctx.repo.store.getNode(id);
    if (node === undefined) break;
    nodes.push(await view(ctx, session, node, forks, commits));
    id = node.predecessor;
  }
  nodes.reverse();
  const fork = record?.forkedFrom;
  const reachesFork = fork !== undefined && nodes.some((n) => n.id === fork.node);
  return { session: name, head, tip, nodes, older: id ?? null, forkedFrom: reachesFork && fork !== undefined ? fork : null };
}

async function view(ctx: ViewerContext, session: Session, node: Node, forks: ReadonlyMap<string, string[]>, commits: ReadonlyMap<string, string>): Promise<DagNode> {
  const store = ctx.repo.store;
  const calls: DagNode[] = [];
  if (node.role === 'assistant') {
    for (const callee of await store.calleesOf(node.id)) {
      const call = await store.getNode(callee);
      if (call !== undefined) calls.push(base(call, { index: 1, total: 1, ids: [call.id] }, [], null, []));
    }
  }
  const siblings = node.role === 'tool' ? { index: 1, total: 1, ids: [node.id] } : await session.siblings(node.id);
  return base(node, siblings, calls, commits.get(node.id) ?? null, forks.get(node.id) ?? []);
}

function base(node: Node, siblings: DagNode['siblings'], calls: readonly DagNode[], commit: string | null, forks: readonly string[]): DagNode {
  const attach = node.metadata?.['attach'];
  const a = typeof attach === 'object' && attach !== null && !Array.isArray(attach) ? (attach as { readonly [k: string]: unknown }) : undefined;
  return {
    id: node.id,
    role: node.role,
    name: node.name ?? null,
    session: node.session,
    seq: node.seq,
    createdAt: node.createdAt,
    preview: node.output.slice(0, PREVIEW_CHARS),
    chars: node.output.length,
    siblings,
    calls,
    input: node.input === undefined ? null : JSON.stringify(node.input).slice(0, PREVIEW_CHARS),
    attach: a !== undefined && typeof a['session'] === 'string' && typeof a['commit'] === 'string' ? { session: a['session'], commit: a['commit'] } : null,
    merge: node.metadata?.['merge'] !== undefined,
    forks,
    commit,
  };
}

/** The newest descendant of a node along its newest non-tool children. */
async function latestLeaf(ctx: ViewerContext, id: string): Promise<string> {
  const store = ctx.repo.store;
  if ((await store.getNode(id)) === undefined) return id;
  for (;;) {
    const children = await store.childrenOf(id);
    const last = children.at(-1);
    if (last === undefined) return id;
    id = last;
  }
}

/** Node id → sessions forked at it. */
async function forksByNode(ctx: ViewerContext): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const name of await ctx.repo.listSessions()) {
    const rec = await ctx.repo.store.getSession(name);
    if (rec?.forkedFrom === undefined) continue;
    out.set(rec.forkedFrom.node, [...(out.get(rec.forkedFrom.node) ?? []), name]);
  }
  return out;
}
