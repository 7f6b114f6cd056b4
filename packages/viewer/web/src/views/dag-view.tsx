import { Graph, layout } from '@dagrejs/dagre';
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { DagNode, DagWindow } from '../../../src/api-types.js';
import { apiPath, sessionPath, useJson } from '../api.js';
import { abbrev, time } from '../format.js';
import { href } from '../route.js';
import { Text, visible } from '../text.js';
import { Status } from './status.js';

/** Nodes of the branch one window holds. */
const WINDOW = 40;

type Kind = 'user' | 'assistant' | 'tool' | 'system' | 'ghost' | 'session';

interface Box {
  readonly id: string;
  readonly kind: Kind;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  readonly text: string;
  readonly node?: DagNode;
  /** For a ghost sibling: the sibling to switch to. */
  readonly via?: string;
}

interface Placed extends Box {
  readonly x: number;
  readonly y: number;
}

interface Laid {
  readonly boxes: readonly Placed[];
  readonly edges: readonly { readonly id: string; readonly kind: string; readonly d: string }[];
  readonly width: number;
  readonly height: number;
}

const SIZE: Readonly<Record<Kind, readonly [number, number]>> = {
  user: [230, 62],
  assistant: [230, 62],
  system: [230, 62],
  tool: [190, 46],
  ghost: [120, 34],
  session: [180, 36],
};

const clip = (s: string, n: number): string => {
  const one = visible(s.replace(/\s+/g, ' ').trim());
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** The boxes and edges of a window, laid out top to bottom by dagre. */
function lay(win: DagWindow): Laid {
  const g = new Graph<object, Box, { kind: string }>();
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 34, marginx: 16, marginy: 16 });
  const add = (box: Box): void => {
    g.setNode(box.id, box);
  };
  let prev: string | undefined;
  if (win.older !== null) {
    add({ id: 'older', kind: 'ghost', width: 160, height: 30, title: 'older nodes', text: '⋯ earlier turns' });
    prev = 'older';
  }
  for (const n of win.nodes) {
    const [w, h] = SIZE[n.role];
    add({ id: n.id, kind: n.role, width: w, height: h, title: n.role, text: n.preview, node: n });
    if (prev !== undefined) g.setEdge(prev, n.id, { kind: 'next' });
    // other siblings: drawn beside the node, each a branch one can switch to
    n.siblings.ids.forEach((sid, i) => {
      if (sid === n.id || prev === undefined || Math.abs(i + 1 - n.siblings.index) > 1) return;
      const gid = `ghost:${sid}`;
      add({ id: gid, kind: 'ghost', width: SIZE.ghost[0], height: SIZE.ghost[1], title: 'sibling', text: `${n.role} ${i + 1}/${n.siblings.total}`, via: sid });
      g.setEdge(prev, gid, { kind: 'sibling' });
    });
    for (const c of n.calls) {
      add({ id: c.id, kind: 'tool', width: SIZE.tool[0], height: SIZE.tool[1], title: 'tool', text: c.input ?? c.preview, node: c });
      g.setEdge(n.id, c.id, { kind: 'call' });
    }
    for (const f of n.forks) {
      const fid = `fork:${f}`;
      add({ id: fid, kind: 'session', width: SIZE.session[0], height: SIZE.session[1], title: 'fork', text: `fork → ${f}` });
      g.setEdge(n.id, fid, { kind: 'fork' });
    }
    if (n.attach !== null) {
      const aid = `attach:${n.id}`;
      add({ id: aid, kind: 'session', width: SIZE.session[0], height: SIZE.session[1], title: n.merge ? 'merge' : 'attach', text: `${n.merge ? 'merge' : 'attach'} ← ${n.attach.session}` });
      g.setEdge(aid, n.id, { kind: n.merge ? 'merge' : 'attach' });
    }
    prev = n.id;
  }
  if (win.forkedFrom !== null) {
    const first = win.nodes.find((n) => n.id === win.forkedFrom?.node);
    if (first !== undefined) {
      add({ id: 'origin', kind: 'session', width: SIZE.session[0], height: SIZE.session[1], title: 'origin', text: `forked from ${win.forkedFrom.session}` });
      g.setEdge('origin', first.id, { kind: 'fork' });
    }
  }
  layout(g);
  const boxes = g.nodes().map((id) => {
    const b = g.node(id) as Box & { x: number; y: number };
    return { ...b, x: b.x, y: b.y };
  });
  const edges = g.edges().map((e) => {
    const label = g.edge(e) as { kind: string; points?: { x: number; y: number }[] };
    const pts = label.points ?? [];
    return { id: `${e.v}->${e.w}`, kind: label.kind, d: pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ') };
  });
  const graph = g.graph() as { width?: number; height?: number };
  return { boxes, edges, width: graph.width ?? 400, height: graph.height ?? 200 };
}

/** The outline of a node: user rounded, assistant square, tool a hexagon, system an octagon, sessions dashed. */
function Shape({ b }: { readonly b: Placed }): JSX.Element {
  const w = b.width;
  const h = b.height;
  const l = b.x - w / 2;
  const t = b.y - h / 2;
  const cls = `shape ${b.kind}`;
  if (b.kind === 'tool') {
    const k = 12;
    return <polygon class={cls} points={`${l + k},${t} ${l + w - k},${t} ${l + w},${b.y} ${l + w - k},${t + h} ${l + k},${t + h} ${l},${b.y}`} />;
  }
  if (b.kind === 'system') {
    const k = 10;
    return <polygon class={cls} points={`${l + k},${t} ${l + w - k},${t} ${l + w},${t + k} ${l + w},${t + h - k} ${l + w - k},${t + h} ${l + k},${t + h} ${l},${t + h - k} ${l},${t + k}`} />;
  }
  const rx = b.kind === 'user' ? 18 : b.kind === 'assistant' ? 3 : 8;
  return <rect class={cls} x={l} y={t} width={w} height={h} rx={rx} />;
}

/** The conversation DAG around the head (or a sibling branch), a window at a time. */
export function DagView({ session, version }: { readonly session: string; readonly version: number }): JSX.Element {
  const [view, setView] = useState<{ readonly tip?: string; readonly via?: string }>({});
  const [selected, setSelected] = useState<string | null>(null);
  const win = useJson<DagWindow>(apiPath(sessionPath(session, 'dag'), { limit: WINDOW, tip: view.tip, via: view.via }), version);
  const laid = useMemo(() => (win.state === 'ok' ? lay(win.data) : null), [win]);
  if (win.state !== 'ok' || laid === null) return <Status loaded={win} />;
  const data = win.data;
  const onHead = data.head !== null && data.nodes.some((n) => n.id === data.head);
  const all = data.nodes.flatMap((n) => [n, ...n.calls]);
  const sel = all.find((n) => n.id === selected);
  return (
    <div class="card dag">
      <div class="pager">
        <span class="small muted">
          {data.nodes.length} nodes of the branch{data.older !== null ? ' (older ones above)' : ''}
          {!onHead && (
            <span class="tag aged" data-testid="off-head">
              viewing another branch — the session’s head is unchanged
            </span>
          )}
        </span>
        <span>
          <button type="button" disabled={data.older === null} onClick={() => data.older !== null && setView({ tip: data.older })} data-testid="dag-older">
            Earlier
          </button>
          <button type="button" disabled={view.tip === undefined && view.via === undefined} onClick={() => setView({})} data-testid="dag-head">
            Back to head
          </button>
        </span>
      </div>
      <div class="legend small">
        <span class="key user">user</span>
        <span class="key assistant">assistant</span>
        <span class="key tool">tool call</span>
        <span class="key system">system</span>
        <span class="key ghost">sibling (retry / edit)</span>
        <span class="key session">fork / attach / merge</span>
      </div>
      <div class="dag-scroll">
        <svg class="dag-svg" width={laid.width} height={laid.height} viewBox={`0 0 ${laid.width} ${laid.height}`} data-testid="dag">
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
            </marker>
          </defs>
          {laid.edges.map((e) => (
            <path key={e.id} d={e.d} class={`edge ${e.kind}`} marker-end="url(#arrow)" />
          ))}
          {laid.boxes.map((b) => {
            const n = b.node;
            const isHead = n !== undefined && n.id === data.head;
            const clickable = n !== undefined || b.via !== undefined || b.id === 'older';
            const onClick = (): void => {
              if (b.via !== undefined) setView({ via: b.via });
              else if (b.id === 'older' && data.older !== null) setView({ tip: data.older });
              else if (n !== undefined) setSelected(n.id);
            };
            const l = b.x - b.width / 2;
            const t = b.y - b.height / 2;
            return (
              <g
                key={b.id}
                class={`box${clickable ? ' clickable' : ''}${isHead ? ' head' : ''}${n !== undefined && n.id === selected ? ' selected' : ''}`}
                data-testid={n !== undefined ? 'dag-node' : b.kind === 'ghost' ? 'dag-ghost' : 'dag-session'}
                data-role={b.kind}
                data-id={n?.id ?? ''}
                data-head={isHead ? 'true' : 'false'}
                onClick={onClick}
              >
                <Shape b={b} />
                <text x={l + 12} y={t + (b.height > 40 ? 18 : b.height / 2 + 4)} class="box-title">
                  {b.kind === 'ghost' || b.kind === 'session' ? clip(b.text, 26) : b.title}
                  {n?.name !== null && n?.name !== undefined && b.kind !== 'tool' ? ` · ${clip(n.name, 16)}` : ''}
                  {b.kind === 'tool' && n?.name !== null && n?.name !== undefined ? ` ${clip(n.name, 18)}` : ''}
                </text>
                {b.kind !== 'ghost' && b.kind !== 'session' && (
                  <text x={l + 12} y={t + 36} class="box-text">
                    {clip(b.text, b.kind === 'tool' ? 26 : 32)}
                  </text>
                )}
                {n !== undefined && n.role !== 'tool' && b.height > 50 && (
                  <text x={l + 12} y={t + 53} class="box-meta">
                    #{n.seq}
                    {n.commit !== null ? ' · commit' : ''}
                  </text>
                )}
                {isHead && (
                  <g class="head-tag">
                    <rect x={l + b.width - 48} y={t - 9} width="44" height="17" rx="8" />
                    <text x={l + b.width - 26} y={t + 3} text-anchor="middle">
                      HEAD
                    </text>
                  </g>
                )}
                {n !== undefined && n.siblings.total > 1 && (
                  <g class="sib" data-testid="sibling-switch">
                    <text
                      x={l + b.width - 76}
                      y={t + b.height - 8}
                      class={n.siblings.index > 1 ? 'sib-arrow' : 'sib-arrow off'}
                      data-testid="sib-prev"
                      onClick={(e) => {
                        e.stopPropagation();
                        const to = n.siblings.ids[n.siblings.index - 2];
                        if (to !== undefined) setView({ via: to });
                      }}
                    >
                      ‹
                    </text>
                    <text x={l + b.width - 48} y={t + b.height - 8} class="sib-label" text-anchor="middle" data-testid="sib-label">
                      {`${n.siblings.index}/${n.siblings.total}`}
                    </text>
                    <text
                      x={l + b.width - 24}
                      y={t + b.height - 8}
                      class={n.siblings.index < n.siblings.total ? 'sib-arrow' : 'sib-arrow off'}
                      data-testid="sib-next"
                      onClick={(e) => {
                        e.stopPropagation();
                        const to = n.siblings.ids[n.siblings.index];
                        if (to !== undefined) setView({ via: to });
                      }}
                    >
                      ›
                    </text>
                  </g>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      {sel !== undefined && (
        <div class="node-detail" data-testid="node-detail">
          <h3>
            {sel.role}
            {sel.name !== null && (
              <>
                {' '}
                <Text value={sel.name} />
              </>
            )}{' '}
            <span class="mono muted small">{sel.id}</span>
          </h3>
          <p class="small muted">
            #{sel.seq} · {time(sel.createdAt)} · session <Text value={sel.session} /> · {sel.chars} chars
            {sel.commit !== null && (
              <>
                {' · '}
                <a href={href({ page: 'commit', session, commit: sel.commit, tab: 'items' })}>commit {abbrev(sel.commit)}</a>
              </>
            )}
          </p>
          {sel.input !== null && <pre class="content"><Text value={sel.input} /></pre>}
          <pre class="content"><Text value={sel.preview} /></pre>
        </div>
      )}
    </div>
  );
}
