import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { ViewerError } from '../errors.js';
import { SECURITY_HEADERS } from './headers.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The built front-end, read into memory once: `index.html` and the files under `assets/`. */
export class StaticAssets {
  readonly #files = new Map<string, { readonly type: string; readonly body: Buffer }>();

  /** Reads the bundle in `dir`; throws `E_VIEWER_NO_ASSETS` when it was not built. */
  constructor(dir: string) {
    if (!existsSync(join(dir, 'index.html'))) {
      throw new ViewerError('E_VIEWER_NO_ASSETS', `no front-end bundle in ${dir}; build it with \`npm run build\` (vite) first`, { status: 500, dir });
    }
    this.#add(dir, '');
  }

  /** Answers a GET of `path` from the bundle; false when the bundle has no such file. */
  serve(path: string, res: ServerResponse): boolean {
    const file = this.#files.get(path === '/' ? '/index.html' : path);
    if (file === undefined) return false;
    const immutable = path.startsWith('/assets/');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': file.type,
      'content-length': file.body.length,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(file.body);
    return true;
  }

  #add(dir: string, prefix: string): void {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) this.#add(full, `${prefix}/${name}`);
      else this.#files.set(`${prefix}/${name}`, { type: TYPES[extname(name)] ?? 'application/octet-stream', body: readFileSync(full) });
    }
  }
}
