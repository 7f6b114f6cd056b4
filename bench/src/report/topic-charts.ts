import type { BenchResults } from './bench-results.js';
import { barChart } from './bar-chart.js';
import type { Chart } from './eval-charts.js';
import { formatNumber } from './format.js';

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const MEASURE_WORDS = new Set(['ms', 'us', 'ns', 's', 'sec', 'bytes', 'mean', 'median', 'min', 'max', 'ratio', 'runs', 'per', 'rate', 'throughput', 'mb', 'mbs', 'ops', 'total', 'count']);
const isMeasure = (name: string): boolean =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((w) => MEASURE_WORDS.has(w) || /^p\d+$/.test(w));

function tables(value: unknown, path: string[], out: { path: string[]; rows: Row[] }[]): void {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isRow)) out.push({ path, rows: value });
    return;
  }
  if (!isRow(value)) return;
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([, v]) => isRow(v) && Object.values(v).every((x) => typeof x !== 'object' || x === null))) {
    out.push({ path, rows: entries.map(([name, v]) => ({ name, ...(v as Row) })) });
    return;
  }
  for (const [k, v] of entries) tables(v, [...path, k], out);
}

/**
 * One chart per table of a topic's result that has a median: every array of objects (or object of objects of
 * scalars, one row per key) with a numeric field whose name contains `median` is drawn as bars of that field (log scale), one bar per row, labelled by the
 * row's other non-measure fields. Everything comes from the JSON; nothing is named by hand.
 * @example
 * ```ts
 * topicCharts(results).map((c) => c.file); // ['topic-render-rows.svg', …]
 * ```
 */
export function topicCharts(results: BenchResults): Chart[] {
  const charts: Chart[] = [];
  for (const [topic, outcome] of Object.entries(results.topics)) {
    if (!outcome.ok) continue;
    const found: { path: string[]; rows: Row[] }[] = [];
    tables(outcome.result, [], found);
    for (const { path, rows } of found) {
      const field = Object.keys(rows[0] as Row).find((k) => /median/i.test(k) && rows.every((r) => typeof r[k] === 'number'));
      if (field === undefined) continue;
      const labels = rows.map((r) =>
        Object.entries(r)
          .filter(([k, v]) => !isMeasure(k) && (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean'))
          .map(([k, v]) => (typeof v === 'number' ? `${k} ${formatNumber(v)}` : String(v)))
          .join(', ')
          .slice(0, 34),
      );
      const name = [topic, ...path].join('-').replace(/[^A-Za-z0-9_-]+/g, '_');
      const title = `${topic}${path.length > 0 ? ` / ${path.join('.')}` : ''}: ${field} (log scale)`;
      charts.push({
        file: `topic-${name}.svg`,
        title,
        svg: barChart({ title, categories: labels, series: [{ name: field, values: rows.map((r) => r[field] as number) }], format: formatNumber, scale: 'log' }),
      });
    }
  }
  return charts;
}
