import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command, Option } from 'commander';
import { createViewer } from '@ctxgit/viewer';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { nonNegativeInt, repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';

interface ServeOptions extends CommonOptions {
  readonly port: number;
  readonly host: string;
}

/** Port `ctxgit serve` listens on when `--port` is absent. */
const DEFAULT_PORT = 4317;
const LOOPBACK = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/** The `serve` command: the read-only web viewer of a repository, on loopback unless `--host` says otherwise. */
export function serveCommand(io: CliIo): Command {
  return withCommon(
    new Command('serve')
      .description(
        'Serve the web viewer of the repository: sessions, the conversation DAG, the context timeline, commits with their items, ' +
          'rendered requests and diffs, summaries expanded and verified, occupancy and charts. Read-only. Runs until interrupted.',
      )
      .addOption(new Option('--port <n>', 'TCP port (0: any free port)').default(DEFAULT_PORT).argParser(nonNegativeInt('--port')))
      .addOption(new Option('--host <address>', 'address to bind; anything but loopback exposes the transcripts to the network').default('127.0.0.1')),
  )
    .addHelpText('after', '\nJSON (--json): { "url" } once listening.')
    .action(async (opts: ServeOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const loopback = LOOPBACK.includes(opts.host);
      const viewer = createViewer({ repo, ...(loopback ? { allowedHosts: LOOPBACK } : {}) });
      const server = createServer(viewer.handler);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(opts.port, opts.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const url = `http://${opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host}:${port}/`;
      if (!loopback) io.stderr.write(`ctxgit: serving on ${opts.host}: every transcript of the repository is readable from the network\n`);
      emit(io, opts, { json: { url }, text: `ctxgit viewer on ${url} (read-only; Ctrl-C to stop)` });
    });
}
