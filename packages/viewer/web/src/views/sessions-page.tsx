import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { SessionList } from '../../../src/api-types.js';
import { apiPath, useJson } from '../api.js';
import { int, pct, time } from '../format.js';
import { href } from '../route.js';
import { Text } from '../text.js';
import { Status } from './status.js';

export function SessionsPage({ version }: { readonly version: number }): JSX.Element {
  const [query, setQuery] = useState('');
  const list = useJson<SessionList>(apiPath('/api/sessions', { q: query === '' ? undefined : query }), version);
  return (
    <section class="page">
      <div class="page-head">
        <h1>Sessions</h1>
        <input
          class="search"
          type="search"
          placeholder="Search sessions by name"
          aria-label="search sessions"
          data-testid="session-search"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
      </div>
      {list.state !== 'ok' ? (
        <Status loaded={list} />
      ) : (
        <>
          <p class="muted small">
            {list.data.sessions.length} of {list.data.total} sessions
          </p>
          <table class="grid" data-testid="sessions">
            <thead>
              <tr>
                <th>Session</th>
                <th>Model</th>
                <th class="num">Nodes</th>
                <th class="num">Commits</th>
                <th class="num">Tokens fed</th>
                <th class="num">Window</th>
                <th>Last activity (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {list.data.sessions.map((s) => (
                <tr key={s.name}>
                  <td>
                    <a href={href({ page: 'session', session: s.name, tab: 'timeline' })} data-testid="session-link">
                      <Text value={s.name} />
                    </a>
                    {s.forkedFrom !== null && (
                      <span class="tag fork" title={`forked at node ${s.forkedFrom.node}`}>
                        fork of <Text value={s.forkedFrom.session} />
                      </span>
                    )}
                  </td>
                  <td class="mono">{s.model}</td>
                  <td class="num">{int(s.nodes)}</td>
                  <td class="num">{int(s.commits)}</td>
                  <td class="num">{int(s.tokens)}</td>
                  <td class="num">{s.window === 0 ? '—' : pct(s.tokens / s.window)}</td>
                  <td>{time(s.lastActivity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
