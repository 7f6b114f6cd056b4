import { useEffect, useState } from 'preact/hooks';
import type { ErrorBody } from '../../src/api-types.js';

/** Fetches a JSON document of the viewer's API; throws with the server's message on an error status. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as T | ErrorBody;
  if (!res.ok) throw new Error((body as ErrorBody).error?.message ?? `HTTP ${res.status}`);
  return body as T;
}

/** A path with query parameters (values encoded; undefined ones left out). */
export function apiPath(path: string, params: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s === '' ? path : `${path}?${s}`;
}

/** The state of one fetch. */
export type Loaded<T> = { readonly state: 'loading' } | { readonly state: 'error'; readonly message: string } | { readonly state: 'ok'; readonly data: T };

/** Loads `path` (again whenever it or `version` changes); null loads nothing. */
export function useJson<T>(path: string | null, version = 0): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (path === null) return undefined;
    let live = true;
    getJson<T>(path).then(
      (data) => live && setLoaded({ state: 'ok', data }),
      (err: unknown) => live && setLoaded({ state: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [path, version]);
  return loaded;
}

/** `/api/sessions/<name>/<view>`. */
export const sessionPath = (name: string, view: string): string => `/api/sessions/${encodeURIComponent(name)}/${view}`;
