import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { TimelinePage } from '../../../src/api-types.js';
import { apiPath, sessionPath, useJson } from '../api.js';
import { abbrev, int, pct, time } from '../format.js';
import { href } from '../route.js';
import { Text } from '../text.js';
import { Status } from './status.js';

const PAGE = 100;

/** One row per ContextCommit, newest first, a page at a time. */
export function Timeline({ session, version }: { readonly session: string; readonly version: number }): JSX.Element {
  const [starts, setStarts] = useState<readonly string[]>([]);
  const start = starts.at(-1);
  const page = useJson<TimelinePage>(apiPath(sessionPath(session, 'timeline'), { start, limit: PAGE }), version);
  if (page.state !== 'ok') return <Status loaded={page} />;
  const { rows, next } = page.data;
  return (
    <div class="card">
      <div class="pager">
        <span class="muted small">
          {rows.length === 0 ? 'No commits yet' : `Turns ${int(rows.at(-1)?.turn ?? 0)}–${int(rows[0]?.turn ?? 0)}`}
        </span>
        <span>
          <button type="button" disabled={starts.length === 0} onClick={() => setStarts(starts.slice(0, -1))} data-testid="newer">
            ‹ Newer
          </button>
          <button type="button" disabled={next === null} onClick={() => next !== null && setStarts([...starts, next])} data-testid="older">
            Older ›
          </button>
        </span>
      </div>
      <table class="grid timeline" data-testid="timeline">
        <thead>
          <tr>
            <th class="num">Turn</th>
            <th>Commit</th>
            <th>What the rules did</th>
            <th class="num">Tokens</th>
            <th>Window</th>
            <th class="num">Prefix kept</th>
            <th>Time (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const share = r.window === 0 ? 0 : r.totalTokens / r.window;
            return (
              <tr key={r.id} class="clickable" onClick={() => (location.hash = href({ page: 'commit', session, commit: r.id, tab: 'items' }))}>
                <td class="num">{r.turn}</td>
                <td>
                  <a class="mono" href={href({ page: 'commit', session, commit: r.id, tab: 'items' })} data-testid="commit-link">
                    {abbrev(r.id)}
                  </a>
                  {r.parentIds.length > 1 && <span class="tag merge">merge</span>}
                  {r.session !== session && <span class="tag fork">{r.session}</span>}
                </td>
                <td>
                  <span class="chips">
                    {r.added > 0 && <span class="chip full">+{r.added}</span>}
                    {r.aged > 0 && <span class="chip aged">aged {r.aged}</span>}
                    {r.cleared > 0 && <span class="chip cleared">cleared {r.cleared}</span>}
                    {r.folded > 0 && <span class="chip summary">folded {r.folded}</span>}
                  </span>
                  <Text class="subject" value={r.subject} />
                </td>
                <td class="num">{int(r.totalTokens)}</td>
                <td>
                  <span class="bar" title={pct(share)}>
                    <span class={share > 0.8 ? 'bar-fill hot' : 'bar-fill'} style={{ width: pct(Math.min(1, share)) }} />
                  </span>
                  <span class="small muted"> {pct(share)}</span>
                </td>
                <td class="num">{r.prefixItems} items</td>
                <td class="small">{time(r.createdAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
