import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { CommitView, DiffView, ExpandView, ItemView, RenderView } from '../../../src/api-types.js';
import { apiPath, sessionPath, useJson } from '../api.js';
import { abbrev, int, pct, time } from '../format.js';
import { href } from '../route.js';
import { Text } from '../text.js';
import { Status } from './status.js';

const TABS: readonly (readonly [string, string])[] = [
  ['items', 'Items'],
  ['request', 'Rendered request'],
  ['diff', 'Diff against parent'],
];
const PROVIDERS = ['anthropic', 'openai-chat', 'openai-responses', 'text'] as const;

/** A state badge: full / aged / cleared / summary / summarized. */
export function Badge({ state }: { readonly state: string | null }): JSX.Element {
  return <span class={`badge ${state ?? 'none'}`}>{state ?? '—'}</span>;
}

function Expanded({ session, commit, item }: { readonly session: string; readonly commit: string; readonly item: ItemView }): JSX.Element {
  const ex = useJson<ExpandView>(apiPath(sessionPath(session, 'expand'), { commit, key: item.key }));
  if (ex.state !== 'ok') return <Status loaded={ex} />;
  const ok = ex.data.originals.every((o) => o.verified);
  return (
    <div class="expanded" data-testid="expanded">
      <p class="small">
        <span class={ok ? 'tag verified' : 'tag broken'} data-testid="verified">
          {ok ? '✓ verified' : '✗ mismatch'}
        </span>{' '}
        {ex.data.originals.length} originals, byte for byte from the DAG; each re-hashed to its recorded git blob id.
      </p>
      <ol class="originals">
        {ex.data.originals.map((o) => (
          <li key={o.key} data-testid="original">
            <div class="item-head">
              <span class={`role ${o.role}`}>{o.role}</span>
              {o.name !== null && <Text class="mono" value={o.name} />}
              <span class="mono small muted" title={`recorded ${o.oid}, recomputed ${o.rehash}`}>
                blob {abbrev(o.oid)} {o.verified ? '✓' : '✗'}
              </span>
            </div>
            <pre class="content">
              <Text value={o.text} />
            </pre>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Items({ session, c }: { readonly session: string; readonly c: CommitView }): JSX.Element {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string): void => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setOpen(next);
  };
  return (
    <ol class="items" data-testid="items">
      {c.items.map((it) => (
        <li key={it.key} class={`item ${it.state}`} data-testid="item" data-state={it.state}>
          <div class="item-head">
            <span class="idx">{it.index}</span>
            <span class={`role ${it.role}`}>{it.role}</span>
            <Badge state={it.state} />
            {it.locked && <span class="tag">locked</span>}
            {it.pinned && <span class="tag">pinned</span>}
            {it.anchor && <span class="tag">anchor</span>}
            {it.attachedFrom !== null && (
              <span class="tag fork" title="expanded from an attach pointer">
                attachedFrom {abbrev(it.attachedFrom)}
              </span>
            )}
            <span class="mono small muted">{it.key}</span>
            <span class="grow" />
            <span class="small muted">reason</span> <Text class="mono small" value={it.reason} />
            <span class="num tokens">{int(it.tokens)} tok</span>
          </div>
          <pre class="content">
            <Text value={it.text} />
            {it.chars > it.text.length ? `\n… ${int(it.chars - it.text.length)} more characters` : ''}
          </pre>
          {it.state === 'summary' && (
            <button type="button" class="link" onClick={() => toggle(it.key)} data-testid="expand">
              {open.has(it.key) ? 'Hide originals' : `Expand to its ${it.folded} folded items`}
            </button>
          )}
          {open.has(it.key) && <Expanded session={session} commit={c.id} item={it} />}
        </li>
      ))}
    </ol>
  );
}

function Request({ commit }: { readonly commit: string }): JSX.Element {
  const [provider, setProvider] = useState<string>('anthropic');
  const r = useJson<RenderView>(apiPath(`/api/commits/${commit}/render`, { provider }));
  return (
    <div>
      <div class="subtabs">
        {PROVIDERS.map((p) => (
          <button key={p} type="button" class={p === provider ? 'sub active' : 'sub'} onClick={() => setProvider(p)} data-testid={`provider-${p}`}>
            {p}
          </button>
        ))}
      </div>
      {r.state !== 'ok' ? (
        <Status loaded={r} />
      ) : (
        <>
          <p class="small muted">
            {int(r.data.bytes)} bytes — the body <code>render(commit, {`{ provider: '${r.data.provider}' }`})</code> returns.
          </p>
          <pre class="content request" data-testid="request">
            <Text value={r.data.body} />
          </pre>
        </>
      )}
    </div>
  );
}

function Diff({ session, commit }: { readonly session: string; readonly commit: string }): JSX.Element {
  const d = useJson<DiffView>(`/api/commits/${commit}/diff`);
  if (d.state !== 'ok') return <Status loaded={d} />;
  const v = d.data;
  return (
    <div data-testid="diff">
      <p>
        {v.a === null ? (
          'The session’s first commit: every item is new.'
        ) : (
          <>
            Against parent <a class="mono" href={href({ page: 'commit', session, commit: v.a, tab: 'diff' })}>{abbrev(v.a)}</a>: {int(v.tokens[0])} → {int(v.tokens[1])} tokens.
          </>
        )}
      </p>
      <div class="prefix" data-testid="prefix-break">
        <strong>Cached prefix breaks at item {v.firstChangedIndex}</strong>
        {v.firstChangedKey !== null && <span class="mono small"> ({v.firstChangedKey})</span>}
        {v.prefix.length > 0 && (
          <table class="grid compact">
            <thead>
              <tr>
                <th>Provider</th>
                <th class="num">Messages kept</th>
                <th class="num">Bytes kept</th>
                <th class="num">Share of parent’s request</th>
              </tr>
            </thead>
            <tbody>
              {v.prefix.map((p) => (
                <tr key={p.provider}>
                  <td>{p.provider}</td>
                  <td class="num">{p.messages}</td>
                  <td class="num">{int(p.bytes)}</td>
                  <td class="num">{p.totalBytes[0] === 0 ? '—' : pct(p.bytes / p.totalBytes[0])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <table class="grid" data-testid="changes">
        <thead>
          <tr>
            <th>Item</th>
            <th>Role</th>
            <th>State</th>
            <th class="num">Tokens</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {v.changes.map((ch) => (
            <tr key={ch.key} data-testid="change">
              <td class="mono small">{ch.key}</td>
              <td>{ch.role}</td>
              <td>
                <Badge state={ch.from} /> → <Badge state={ch.to} />
              </td>
              <td class="num">
                {ch.tokensFrom === null ? '—' : int(ch.tokensFrom)} → {ch.tokensTo === null ? '—' : int(ch.tokensTo)}
              </td>
              <td>
                <Text class="mono small" value={ch.reason} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One ContextCommit: its items, its request per provider, its diff against the parent. */
export function CommitPage({ session, commit, tab }: { readonly session: string; readonly commit: string; readonly tab: string }): JSX.Element {
  const c = useJson<CommitView>(`/api/commits/${commit}`);
  if (c.state !== 'ok') return <Status loaded={c} />;
  const v = c.data;
  return (
    <section class="page">
      <div class="card commit-head" data-testid="commit">
        <h1 class="mono">{abbrev(v.id)}</h1>
        <dl class="facts wide">
          <dt>session</dt>
          <dd>
            <Text value={v.session} />
          </dd>
          <dt>model</dt>
          <dd class="mono">{v.model}</dd>
          <dt>tokens</dt>
          <dd>
            {int(v.totalTokens)} of {int(v.window)} ({pct(v.totalTokens / v.window)})
          </dd>
          <dt>rules</dt>
          <dd class="mono small">{v.rulesVersion}</dd>
          <dt>created</dt>
          <dd>{time(v.createdAt)}</dd>
          <dt>parents</dt>
          <dd class="mono small">
            {v.parentIds.length === 0
              ? 'none'
              : v.parentIds.map((p) => (
                  <a key={p} href={href({ page: 'commit', session, commit: p, tab })}>
                    {abbrev(p)}{' '}
                  </a>
                ))}
          </dd>
          <dt>items</dt>
          <dd>
            {Object.entries(v.states).map(([s, n]) => (
              <span key={s} class="state-count">
                <Badge state={s} /> {n}
              </span>
            ))}
          </dd>
          <dt>this turn</dt>
          <dd>
            +{v.summary.added} added, {v.summary.aged} aged, {v.summary.cleared} cleared, {v.summary.folded} folded; prefix kept: {v.summary.firstChangedIndex} items
          </dd>
        </dl>
      </div>
      <nav class="tabs" role="tablist">
        {TABS.map(([id, label]) => (
          <a key={id} role="tab" class={id === tab ? 'tab active' : 'tab'} aria-selected={id === tab} href={href({ page: 'commit', session, commit, tab: id })} data-testid={`tab-${id}`}>
            {label}
          </a>
        ))}
      </nav>
      <div class="card">
        {tab === 'items' && <Items session={session} c={v} />}
        {tab === 'request' && <Request commit={commit} />}
        {tab === 'diff' && <Diff session={session} commit={commit} />}
      </div>
    </section>
  );
}
