import { useEffect, useState } from 'preact/hooks';

/** Where the page is: parsed from the location hash. */
export type Route =
  | { readonly page: 'sessions' }
  | { readonly page: 'session'; readonly session: string; readonly tab: string }
  | { readonly page: 'commit'; readonly session: string; readonly commit: string; readonly tab: string };

/** Parses `#/`, `#/s/<name>[/<tab>]`, `#/s/<name>/c/<commit>[/<tab>]`. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 's' && parts[1] !== undefined && parts[1] !== '') {
    if (parts[2] === 'c' && parts[3] !== undefined) return { page: 'commit', session: parts[1], commit: parts[3], tab: parts[4] ?? 'items' };
    return { page: 'session', session: parts[1], tab: parts[2] ?? 'timeline' };
  }
  return { page: 'sessions' };
}

/** The hash of a route. */
export function href(route: Route): string {
  if (route.page === 'sessions') return '#/';
  const s = `#/s/${encodeURIComponent(route.session)}`;
  if (route.page === 'session') return `${s}/${route.tab}`;
  return `${s}/c/${route.commit}/${route.tab}`;
}

/** The current route, following hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
