import { escapeXml } from './escape-xml.js';

/** One series of a grouped bar chart: one value per category (`null` draws no bar). */
export interface BarSeries {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

/** Input of {@link barChart}. */
export interface BarChartSpec {
  readonly title: string;
  /** One group of bars per category, top to bottom. */
  readonly categories: readonly string[];
  readonly series: readonly BarSeries[];
  /** Formats a value for its label, e.g. as a percentage. */
  readonly format: (value: number) => string;
  /** The axis maximum. @defaultValue the largest value (at least 1e-9) */
  readonly max?: number;
  /** `log` spaces the axis logarithmically (for values across orders of magnitude). @defaultValue 'linear' */
  readonly scale?: 'linear' | 'log';
  /** A vertical reference line, e.g. 1.0 for ratios. */
  readonly reference?: { readonly value: number; readonly label: string };
}

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];
const WIDTH = 760;
const LABEL_W = 210;
const PLOT_W = 440;
const BAR_H = 12;
const GAP = 10;
const TOP = 46;

const num = (n: number): string => (Math.round(n * 10) / 10).toString();

/**
 * A horizontal grouped bar chart as a standalone, well-formed SVG document (no dependencies, deterministic).
 * @example
 * ```ts
 * barChart({ title: 'Recall', categories: ['full', 'window'], series: [{ name: '4k', values: [1, 0.5] }], format: String });
 * ```
 */
export function barChart(spec: BarChartSpec): string {
  const values = spec.series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v));
  const max = spec.max ?? Math.max(1e-9, ...values, spec.reference?.value ?? 0);
  const groupH = spec.series.length * BAR_H + GAP;
  const plotH = spec.categories.length * groupH;
  const legendY = TOP + plotH + 18;
  const height = legendY + 22;
  const positive = values.filter((v) => v > 0);
  const floor = positive.length === 0 ? max / 10 : Math.min(...positive) / 2;
  const fraction =
    spec.scale === 'log' && max > floor
      ? (v: number): number => (v <= floor ? 0 : Math.log(Math.min(v, max) / floor) / Math.log(max / floor))
      : (v: number): number => Math.max(0, Math.min(v, max)) / max;
  const x = (v: number): number => LABEL_W + fraction(v) * PLOT_W;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${num(height)}" viewBox="0 0 ${WIDTH} ${num(height)}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<rect width="${WIDTH}" height="${num(height)}" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="14" font-weight="bold">${escapeXml(spec.title)}</text>`,
    `<line x1="${LABEL_W}" y1="${TOP - 6}" x2="${LABEL_W}" y2="${num(TOP + plotH)}" stroke="#333333"/>`,
  ];
  spec.categories.forEach((category, c) => {
    const y0 = TOP + c * groupH;
    out.push(`<text x="${LABEL_W - 6}" y="${num(y0 + (spec.series.length * BAR_H) / 2 + 4)}" text-anchor="end">${escapeXml(category)}</text>`);
    spec.series.forEach((series, s) => {
      const v = series.values[c];
      if (v === null || v === undefined || !Number.isFinite(v)) return;
      const y = y0 + s * BAR_H;
      const color = PALETTE[s % PALETTE.length] as string;
      out.push(`<rect x="${LABEL_W}" y="${num(y)}" width="${num(x(v) - LABEL_W)}" height="${BAR_H - 2}" fill="${color}"/>`);
      out.push(`<text x="${num(x(v) + 4)}" y="${num(y + BAR_H - 3)}" font-size="9">${escapeXml(spec.format(v))}</text>`);
    });
  });
  if (spec.reference !== undefined) {
    const rx = num(x(spec.reference.value));
    out.push(`<line x1="${rx}" y1="${TOP - 6}" x2="${rx}" y2="${num(TOP + plotH)}" stroke="#999999" stroke-dasharray="4 3"/>`);
    out.push(`<text x="${rx}" y="${TOP - 10}" text-anchor="middle" font-size="9" fill="#666666">${escapeXml(spec.reference.label)}</text>`);
  }
  let lx = LABEL_W;
  spec.series.forEach((series, s) => {
    const color = PALETTE[s % PALETTE.length] as string;
    out.push(`<rect x="${lx}" y="${num(legendY - 9)}" width="10" height="10" fill="${color}"/>`);
    out.push(`<text x="${lx + 14}" y="${num(legendY)}">${escapeXml(series.name)}</text>`);
    lx += 24 + series.name.length * 6.5;
  });
  out.push('</svg>', '');
  return out.join('\n');
}
