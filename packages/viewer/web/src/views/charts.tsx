import type { JSX } from 'preact';
import type { ChartsView } from '../../../src/api-types.js';
import { apiPath, sessionPath, useJson } from '../api.js';
import { int, short, usd } from '../format.js';
import { Status } from './status.js';

const W = 960;
const H = 240;
const PAD = { l: 56, r: 12, t: 12, b: 28 };

const x = (i: number, n: number): number => PAD.l + (n <= 1 ? 0 : (i / (n - 1)) * (W - PAD.l - PAD.r));
const y = (v: number, max: number): number => H - PAD.b - (max === 0 ? 0 : (v / max) * (H - PAD.t - PAD.b));

function Axis({ max, n, fmt }: { readonly max: number; readonly n: number; readonly fmt: (v: number) => string }): JSX.Element {
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  return (
    <g class="axis">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.l} x2={W - PAD.r} y1={y(t, max)} y2={y(t, max)} class="grid-line" />
          <text x={PAD.l - 6} y={y(t, max) + 4} class="tick" text-anchor="end">
            {fmt(t)}
          </text>
        </g>
      ))}
      <text x={W - PAD.r} y={H - 6} class="tick" text-anchor="end">
        call {n}
      </text>
      <text x={PAD.l} y={H - 6} class="tick">
        call 1
      </text>
    </g>
  );
}

/** Tokens fed vs the full history per call, and cost per call. */
export function Charts({ session, version }: { readonly session: string; readonly version: number }): JSX.Element {
  const charts = useJson<ChartsView>(apiPath(sessionPath(session, 'charts'), { limit: 500 }), version);
  if (charts.state !== 'ok') return <Status loaded={charts} />;
  const { points, usdPerMTok, model, truncated } = charts.data;
  if (points.length === 0) return <p class="muted">No commits yet.</p>;
  const n = points.length;
  const maxTok = Math.max(...points.map((p) => Math.max(p.full, p.fed)));
  const line = (pick: (p: (typeof points)[number]) => number): string => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i, n).toFixed(1)},${y(pick(p), maxTok).toFixed(1)}`).join(' ');
  const fed = points.reduce((s, p) => s + p.fed, 0);
  const full = points.reduce((s, p) => s + p.full, 0);
  const step = (W - PAD.l - PAD.r) / n;
  const bw = Math.max(1, step * 0.8);
  const band = (i: number): number => PAD.l + step * i + (step - bw) / 2;
  const maxCost = Math.max(...points.map((p) => p.costFull ?? 0));
  return (
    <div class="charts">
      <div class="card">
        <h2>Tokens per call: fed vs full history</h2>
        <p class="muted small">
          {truncated ? `The newest ${n} calls. ` : ''}Over these calls ctxgit fed {int(fed)} tokens where the full history would have been {int(full)} (
          {full === 0 ? 0 : Math.round((100 * (full - fed)) / full)}% saved).
        </p>
        <svg class="chart" viewBox={`0 0 ${W} ${H}`} data-testid="chart-tokens" role="img" aria-label="tokens fed and full history per call">
          <Axis max={maxTok} n={n} fmt={short} />
          <path d={line((p) => p.full)} class="series full-line" />
          <path d={line((p) => p.fed)} class="series fed-line" />
        </svg>
        <p class="legend">
          <span class="dot hist" /> fed by ctxgit <span class="dot free-line" /> full history
        </p>
      </div>
      <div class="card">
        <h2>Cost per call</h2>
        {usdPerMTok === null ? (
          <p class="muted small">No input price known for {model}: pass prices to the viewer.</p>
        ) : (
          <>
            <p class="muted small">
              At {usd(usdPerMTok)} per million input tokens ({model}, uncached): {usd((fed * usdPerMTok) / 1e6)} fed vs {usd((full * usdPerMTok) / 1e6)} for the full history.
            </p>
            <svg class="chart" viewBox={`0 0 ${W} ${H}`} data-testid="chart-cost" role="img" aria-label="cost per call">
              <Axis max={maxCost} n={n} fmt={(v) => usd(v)} />
              {points.map((p, i) => (
                <g key={p.id}>
                  <rect class="bar-full" x={band(i)} width={bw} y={y(p.costFull ?? 0, maxCost)} height={H - PAD.b - y(p.costFull ?? 0, maxCost)} />
                  <rect class="bar-fed" x={band(i)} width={bw} y={y(p.costFed ?? 0, maxCost)} height={H - PAD.b - y(p.costFed ?? 0, maxCost)} />
                </g>
              ))}
            </svg>
            <p class="legend">
              <span class="dot hist" /> fed by ctxgit <span class="dot free-line" /> full history
            </p>
          </>
        )}
      </div>
    </div>
  );
}
