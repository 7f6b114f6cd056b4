import { formatNumber } from './format.js';
import { markdownTable } from './markdown-table.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrimitive = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function show(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every(isPrimitive)) return v.map((x) => show(x)).join(', ');
  return JSON.stringify(v);
}

function flatten(row: Record<string, Json>, prefix = ''): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(row)) {
    if (isRecord(v) && Object.values(v).every(isPrimitive)) Object.assign(out, flatten(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

const isScalarRecord = (v: unknown): v is Record<string, Json> => isRecord(v) && Object.values(v).every(isPrimitive);
/** An object whose values are all objects of scalars: a table keyed by name. */
const isRowRecord = (v: unknown): v is Record<string, Record<string, Json>> =>
  isRecord(v) && Object.keys(v).length > 0 && Object.values(v).every(isScalarRecord);

/**
 * Renders any JSON-able benchmark result as markdown: scalar fields (and objects of scalars, as `a.b`) in a
 * figure/value table; arrays of objects, and objects whose values are all objects of scalars, as tables (one
 * row per element or key); other nested objects as sub-sections.
 * @example
 * ```ts
 * jsonTables({ medianMs: 1.5, sizes: [{ n: 21, ms: 0.1 }] }, 4);
 * ```
 */
export function jsonTables(value: unknown, level: number): string {
  const heading = '#'.repeat(Math.min(6, level));
  if (!isRecord(value)) {
    if (Array.isArray(value) && value.every(isRecord)) return arrayTable(value as Record<string, Json>[]);
    return show(value as Json);
  }
  if (isRowRecord(value)) return arrayTable(Object.entries(value).map(([name, row]) => ({ name, ...row })));
  const parts: string[] = [];
  const scalar = (v: unknown): boolean => isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive));
  const scalars = Object.entries(value).flatMap(([k, v]): [string, Json][] =>
    scalar(v) ? [[k, v]] : isScalarRecord(v) && !isRowRecord(v) && Object.keys(v).length > 0 ? Object.entries(v).map(([kk, vv]) => [`${k}.${kk}`, vv]) : [],
  );
  if (scalars.length > 0) parts.push(markdownTable(['figure', 'value'], scalars.map(([k, v]) => [k, show(v)])));
  for (const [k, v] of Object.entries(value)) {
    if (scalar(v) || (isScalarRecord(v) && Object.keys(v).length > 0)) continue;
    if (Array.isArray(v) && v.every(isRecord)) parts.push(`${heading} ${k}\n\n${arrayTable(v as Record<string, Json>[])}`);
    else parts.push(`${heading} ${k}\n\n${jsonTables(v, level + 1)}`);
  }
  return parts.join('\n\n');
}

function arrayTable(rows: readonly Record<string, Json>[]): string {
  const flat = rows.map((r) => flatten(r));
  const columns: string[] = [];
  for (const r of flat) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return markdownTable(columns, flat.map((r) => columns.map((c) => show(r[c]))));
}
