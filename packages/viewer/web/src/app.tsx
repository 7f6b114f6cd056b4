import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { href, useRoute } from './route.js';
import { CommitPage } from './views/commit-page.js';
import { SessionPage } from './views/session-page.js';
import { SessionsPage } from './views/sessions-page.js';

/** Counts the `turn` events of the server (a backend that mounts the viewer sends one per turn). */
function useLiveVersion(): { version: number; live: boolean; last: string | null } {
  const [state, setState] = useState({ version: 0, live: false, last: null as string | null });
  useEffect(() => {
    const source = new EventSource('/api/events');
    source.onopen = () => setState((s) => ({ ...s, live: true }));
    source.onerror = () => setState((s) => ({ ...s, live: false }));
    source.addEventListener('turn', (e) => {
      const session = (JSON.parse((e as MessageEvent<string>).data) as { session?: unknown }).session;
      setState((s) => ({ version: s.version + 1, live: true, last: typeof session === 'string' ? session : null }));
    });
    return () => source.close();
  }, []);
  return state;
}

export function App(): JSX.Element {
  const route = useRoute();
  const live = useLiveVersion();
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">
          <span class="logo">◆</span> ctxgit <span class="muted">viewer</span>
        </a>
        <nav class="crumbs">
          {route.page !== 'sessions' && (
            <>
              <span class="sep">/</span>
              <a href={href({ page: 'session', session: route.session, tab: 'timeline' })}>{route.session}</a>
            </>
          )}
          {route.page === 'commit' && (
            <>
              <span class="sep">/</span>
              <span class="mono">{route.commit.slice(0, 12)}</span>
            </>
          )}
        </nav>
        <span class={live.live ? 'live on' : 'live'} title="live updates (server-sent events)" data-testid="live">
          {live.live ? '● live' : '○ offline'}
        </span>
      </header>
      <main>
        {route.page === 'sessions' && <SessionsPage version={live.version} />}
        {route.page === 'session' && <SessionPage session={route.session} tab={route.tab} version={live.version} />}
        {route.page === 'commit' && <CommitPage session={route.session} commit={route.commit} tab={route.tab} />}
      </main>
    </div>
  );
}
