// A smart-HTTP git server for tests: node:http on 127.0.0.1 in front of git's own `git http-backend` (CGI).
// argv: <project root> <port, 0 for any> [user:password]. Prints `listening <port>` once it accepts connections.
// IPC message {fail: 'request' | 'response'}: the next receive-pack POST kills this process (SIGKILL) after half
// of its body reached git ('request'), or after git answered but before the answer is sent ('response').
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const [root, portArg, credentials] = process.argv.slice(2);
let fail = null;
process.on('message', (m) => {
  if (m && typeof m === 'object' && 'fail' in m) fail = m.fail;
});

function die() {
  process.kill(process.pid, 'SIGKILL');
}

const server = createServer((req, res) => {
  if (credentials !== undefined) {
    const given = req.headers.authorization ?? '';
    if (given !== `Basic ${Buffer.from(credentials).toString('base64')}`) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('authentication required\n');
      req.resume();
      return;
    }
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const env = {
    PATH: process.env.PATH ?? '',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_USER: 'ctxgit-test',
    REMOTE_ADDR: '127.0.0.1',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: root,
  };
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') env[`HTTP_${k.toUpperCase().replace(/-/g, '_')}`] = v;
  const pushing = req.method === 'POST' && url.pathname.endsWith('/git-receive-pack');
  const mode = pushing ? fail : null;
  const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  cgi.stderr.on('data', (c) => (stderr += c));
  cgi.stdin.on('error', () => {});
  if (mode === 'request') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      cgi.stdin.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(die, 50));
    });
  } else req.pipe(cgi.stdin);
  const out = [];
  cgi.stdout.on('data', (c) => out.push(c));
  cgi.on('close', (code) => {
    if (mode === 'response') die();
    const raw = Buffer.concat(out);
    const split = raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.indexOf('\n\n');
    const sep = raw.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
    if (split < 0) {
      res.writeHead(500).end(`git http-backend failed (${code}): ${stderr}`);
      return;
    }
    let status = 200;
    const headers = {};
    for (const line of raw.subarray(0, split).toString('latin1').split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const k = line.slice(0, i).trim();
      const v = line.slice(i + 1).trim();
      if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
      else headers[k] = v;
    }
    res.writeHead(status, headers).end(raw.subarray(split + sep));
  });
});
// a loaded test machine can take long: no server-side time limits
server.requestTimeout = 0;
server.headersTimeout = 0;
server.keepAliveTimeout = 0;
server.listen(Number(portArg), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address !== null ? address.port : 0}\n`);
});
