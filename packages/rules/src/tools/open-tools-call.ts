/** What one `open_tools` call asks for (any combination of the three). */
export interface OpenToolsRequest {
  readonly open?: string;
  readonly close?: string;
  readonly search?: string;
}

/** The arguments of an `open_tools` call, or why they are not valid. Accepts an object or its JSON text. */
export function parseOpenTools(input: unknown): OpenToolsRequest | string {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return 'the arguments are not JSON';
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object { open?, close?, search? }';
  const r = v as Record<string, unknown>;
  const out: { open?: string; close?: string; search?: string } = {};
  for (const k of ['open', 'close', 'search'] as const) {
    const x = r[k];
    if (x === undefined || x === null || x === '') continue;
    if (typeof x !== 'string') return `"${k}" must be a string`;
    out[k] = k === 'search' ? x : x.trim().replace(/^\/+|\/+$/g, '');
  }
  if (out.open === undefined && out.close === undefined && out.search === undefined) return 'give "open" (a group), "close" (a group) or "search" (words)';
  return out;
}
