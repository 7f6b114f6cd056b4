/**
 * `better-sqlite3` (SqliteSaver's driver) is a native addon whose install script the workspace does not run
 * (`allowBuilds: better-sqlite3: false`: a fresh `npm test` must not need a C++ compiler, and its prebuilt binaries
 * are a download). The checkpointer bench builds it here, once, from the sources pnpm installed, with node-gyp and
 * the headers of the running Node when they are on disk; nothing is downloaded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The headers' prefix (`<prefix>/include/node/node.h`) of the running Node, when installed with it. */
function nodeDir(): string | undefined {
  for (const dir of [join(dirname(process.execPath), '..'), '/usr', '/usr/local']) {
    if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  }
  return undefined;
}

function nodeGyp(): string | undefined {
  const npmDir = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const candidate = join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Loads `better-sqlite3`, building its addon first when it is missing.
 *
 * @param log - progress lines
 * @returns the `Database` constructor
 * @throws Error when the addon cannot be built here (no compiler, no Node headers, no node-gyp)
 */
export function loadBetterSqlite3(log: (line: string) => void): new (file: string) => unknown {
  const sqliteRequire = createRequire(require.resolve('@langchain/langgraph-checkpoint-sqlite'));
  const pkg = dirname(sqliteRequire.resolve('better-sqlite3/package.json'));
  if (!existsSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'))) {
    const dir = nodeDir();
    const gyp = nodeGyp();
    if (dir === undefined || gyp === undefined) throw new Error('better-sqlite3 is not built and this machine lacks the Node headers or node-gyp to build it');
    log(`building better-sqlite3 from source in ${pkg} (once; a few minutes)`);
    const r = spawnSync(process.execPath, [gyp, 'rebuild', '--release', `--nodedir=${dir}`], { cwd: pkg, encoding: 'utf8', env: { ...process.env, npm_config_nodedir: dir } });
    if (r.status !== 0) throw new Error(`building better-sqlite3 failed (exit ${String(r.status)}): ${(r.stderr ?? '').slice(-2000)}`);
  }
  return sqliteRequire('better-sqlite3') as new (file: string) => unknown;
}
