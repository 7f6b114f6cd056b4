import type { JSX } from 'preact';
import type { OccupancyView } from '../../../src/api-types.js';
import { sessionPath, useJson } from '../api.js';
import { int, pct } from '../format.js';
import { Status } from './status.js';

const R = 52;
const C = 2 * Math.PI * R;

/** The occupancy ring (from the record `session.occupancy()` returns) and the four-way breakdown of our count. */
export function OccupancyPanel({ session, version }: { readonly session: string; readonly version: number }): JSX.Element {
  const occ = useJson<OccupancyView>(sessionPath(session, 'occupancy'), version);
  if (occ.state !== 'ok') return <Status loaded={occ} />;
  const { record, breakdown } = occ.data;
  const share = record.window === 0 ? 0 : Math.min(1, record.total_used / record.window);
  const rows: readonly (readonly [string, number, string])[] = [
    ['system', breakdown.system, 'sys'],
    ['history', breakdown.history, 'hist'],
    ['tools', breakdown.tools, 'tool'],
    ['output reserve', breakdown.outputReserve, 'res'],
  ];
  const free = Math.max(0, record.window - breakdown.system - breakdown.history - breakdown.tools - breakdown.outputReserve);
  return (
    <div class="card occupancy" data-testid="occupancy">
      <h2>Occupancy</h2>
      <div class="ring-wrap">
        <svg class="ring" viewBox="0 0 140 140" role="img" aria-label={`${pct(share)} of the window in use`}>
          <circle cx="70" cy="70" r={R} class="ring-bg" />
          <circle cx="70" cy="70" r={R} class={share > 0.8 ? 'ring-fg hot' : 'ring-fg'} stroke-dasharray={`${share * C} ${C}`} transform="rotate(-90 70 70)" />
          <text x="70" y="66" class="ring-pct">
            {pct(share)}
          </text>
          <text x="70" y="86" class="ring-sub">
            of window
          </text>
        </svg>
        <dl class="facts">
          <dt>used</dt>
          <dd data-testid="occ-used">{int(record.total_used)}</dd>
          <dt>window</dt>
          <dd data-testid="occ-window">{int(record.window)}</dd>
          <dt>basis</dt>
          <dd data-testid="occ-basis">
            <span class={`tag ${record.basis}`}>{record.basis}</span>
          </dd>
          <dt>estimated</dt>
          <dd data-testid="occ-estimated">{int(record.estimated)}</dd>
          {record.calibration !== undefined && (
            <>
              <dt>calibration</dt>
              <dd data-testid="occ-calibration">×{record.calibration.toFixed(3)}</dd>
            </>
          )}
        </dl>
      </div>
      <div class="stack" aria-label="breakdown of the window">
        {rows.map(([label, n, cls]) => (
          <span key={label} class={`seg ${cls}`} style={{ width: pct(record.window === 0 ? 0 : n / record.window) }} title={`${label}: ${int(n)}`} />
        ))}
      </div>
      <table class="breakdown" data-testid="occ-breakdown">
        <tbody>
          {rows.map(([label, n, cls]) => (
            <tr key={label}>
              <td>
                <span class={`dot ${cls}`} /> {label}
              </td>
              <td class="num">{int(n)}</td>
              <td class="num muted">{pct(record.window === 0 ? 0 : n / record.window)}</td>
            </tr>
          ))}
          <tr>
            <td>
              <span class="dot free" /> free
            </td>
            <td class="num">{int(free)}</td>
            <td class="num muted">{pct(record.window === 0 ? 0 : free / record.window)}</td>
          </tr>
        </tbody>
      </table>
      <p class="muted small">
        Ring: <code>session.occupancy()</code> ({record.basis === 'measured' ? 'the provider’s reported usage for the latest commit' : 'our count of the latest commit'}). Breakdown: our count of
        its live items; the reserve is the window minus the history budget.
      </p>
    </div>
  );
}
