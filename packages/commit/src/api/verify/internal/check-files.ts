import type { Verifier } from './verifier.js';
import { report } from './verifier.js';

const MARKER = 'ctxgit.json';
const MARKER_TEXT = '{"format":1}\n';

async function list(v: Verifier, dir: string): Promise<string[] | null> {
  try {
    return (await v.git.fs.promises.readdir(dir)).map(String).sort();
  } catch {
    return null;
  }
}

async function walkLocks(v: Verifier, dir: string, rel: string): Promise<void> {
  for (const name of (await list(v, dir)) ?? []) {
    const path = `${dir}/${name}`;
    let isDir = false;
    try {
      isDir = (await v.git.fs.promises.stat(path)).isDirectory();
    } catch {
      continue;
    }
    if (isDir) await walkLocks(v, path, `${rel}/${name}`);
    else if (name.endsWith('.lock')) report(v, 'E_VERIFY_STALE_LOCK', `${rel}/${name}`, 'a lock file: a writer is running, or one crashed (recoverStaleLocks removes it)', 'warning');
  }
}

/** The ctxgit marker file, lock files under refs/, and temporary object files a crash can leave. */
export async function checkFiles(v: Verifier): Promise<void> {
  const gitdir = v.git.gitdir;
  let marker: string | undefined;
  try {
    marker = Buffer.from(await v.git.fs.promises.readFile(`${gitdir}/${MARKER}`)).toString('utf8');
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
    if (code !== 'ENOENT') report(v, 'E_VERIFY_IO', MARKER, `unreadable (${code || String(err)})`);
  }
  if (marker !== MARKER_TEXT) report(v, 'E_VERIFY_NOT_CTXGIT', MARKER, marker === undefined ? `no ${MARKER}: not a ctxgit repository` : `${MARKER} holds ${JSON.stringify(marker.slice(0, 40))}`);
  await walkLocks(v, `${gitdir}/refs`, 'refs');
  for (const shard of (await list(v, `${gitdir}/objects`)) ?? []) {
    if (!/^[0-9a-f]{2}$/u.test(shard)) continue;
    for (const name of (await list(v, `${gitdir}/objects/${shard}`)) ?? []) {
      if (name.startsWith('tmp_')) report(v, 'E_VERIFY_TEMP_FILE', `objects/${shard}/${name}`, 'a temporary object file a crashed writer left (invisible to git; safe to delete)', 'warning');
    }
  }
}
