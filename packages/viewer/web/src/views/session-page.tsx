import type { JSX } from 'preact';
import { href } from '../route.js';
import { Charts } from './charts.js';
import { DagView } from './dag-view.js';
import { OccupancyPanel } from './occupancy-panel.js';
import { Timeline } from './timeline.js';

const TABS: readonly (readonly [string, string])[] = [
  ['timeline', 'Context timeline'],
  ['dag', 'Conversation DAG'],
  ['charts', 'Charts'],
];

export function SessionPage({ session, tab, version }: { readonly session: string; readonly tab: string; readonly version: number }): JSX.Element {
  return (
    <section class="page with-side">
      <div class="main-col">
        <nav class="tabs" role="tablist">
          {TABS.map(([id, label]) => (
            <a key={id} role="tab" class={id === tab ? 'tab active' : 'tab'} aria-selected={id === tab} href={href({ page: 'session', session, tab: id })} data-testid={`tab-${id}`}>
              {label}
            </a>
          ))}
        </nav>
        {tab === 'timeline' && <Timeline session={session} version={version} />}
        {tab === 'dag' && <DagView session={session} version={version} />}
        {tab === 'charts' && <Charts session={session} version={version} />}
      </div>
      <aside class="side-col">
        <OccupancyPanel session={session} version={version} />
      </aside>
    </section>
  );
}
