// A local stand-in for the OpenAI Chat Completions and Anthropic Messages APIs on loopback: every request is checked
// against the provider's documented rules (headers, body via @ctxgit/render's validateRequest) and answered with a
// scripted reply in the API's real response format, `usage` included. Requests are recorded for assertions.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateRequest } from '@ctxgit/render';
import { countRequest, estimateTokenizer, loadTokenizer } from '@ctxgit/tokenize';

/** One request the fake provider received. */
export interface RecordedRequest {
  readonly api: 'openai-chat' | 'anthropic';
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
  /** Rule violations found; a request with any was answered 400. */
  readonly issues: readonly string[];
}

/** A running fake provider. */
export interface FakeProvider {
  /** `http://127.0.0.1:<port>`: the Anthropic `baseURL`; OpenAI's is `${url}/v1`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies, answered in order; an empty queue answers `reply <n>`. */
  script(...replies: string[]): void;
  /** Answers the next valid request with this HTTP status and the API's error body (e.g. 500, 529). */
  failNext(status: number): void;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts the fake provider on 127.0.0.1 on an ephemeral port. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: string[] = [];
  const requests: RecordedRequest[] = [];
  let served = 0;
  let failStatus: number | undefined;
  const openaiTokenizer = await loadTokenizer('o200k_base');
  const anthropicTokenizer = estimateTokenizer;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? '').split('?')[0] ?? '';
      const api = path === '/v1/chat/completions' ? 'openai-chat' : path === '/v1/messages' ? 'anthropic' : undefined;
      if (req.method !== 'POST' || api === undefined) {
        send(res, 404, { error: { message: `no route ${req.method ?? ''} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      const issues: string[] = [];
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) issues.push('content-type must be application/json');
      if (api === 'openai-chat' && !/^Bearer \S+/.test(String(req.headers['authorization'] ?? ''))) issues.push('missing Authorization: Bearer <key>');
      if (api === 'anthropic') {
        const key = req.headers['x-api-key'];
        const bearer = /^Bearer \S+/.test(String(req.headers['authorization'] ?? ''));
        if ((typeof key !== 'string' || key === '') && !bearer) issues.push('missing x-api-key (or Authorization: Bearer)');
        if (typeof req.headers['anthropic-version'] !== 'string') issues.push('missing anthropic-version');
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        issues.push('body is not JSON');
      }
      if (body !== undefined) for (const i of validateRequest(api, body)) issues.push(`${i.path}: ${i.code} ${i.message}`);
      requests.push({ api, path, headers: req.headers, body, issues });
      if (issues.length > 0) {
        const message = issues.join('; ');
        if (api === 'openai-chat') send(res, 400, { error: { message, type: 'invalid_request_error', param: null, code: null } });
        else send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message } });
        return;
      }
      if (failStatus !== undefined) {
        const status = failStatus;
        failStatus = undefined;
        const message = `scripted failure ${status}`;
        if (api === 'openai-chat') send(res, status, { error: { message, type: 'server_error', param: null, code: null } });
        else send(res, status, { type: 'error', error: { type: 'api_error', message } });
        return;
      }
      served += 1;
      const text = queue.shift() ?? `reply ${served}`;
      const model = (body as { model: string }).model;
      if (api === 'openai-chat') {
        const prompt = countRequest('openai-chat', body, openaiTokenizer).total;
        const completion = openaiTokenizer.count(text);
        send(res, 200, {
          id: `chatcmpl-fake${served}`,
          object: 'chat.completion',
          created: 1_700_000_000 + served,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 } },
          system_fingerprint: 'fp_fake',
        });
      } else {
        const input = countRequest('anthropic-messages', body, anthropicTokenizer).total;
        send(res, 200, {
          id: `msg_fake${served}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: input, output_tokens: anthropicTokenizer.count(text), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        });
      }
    })().catch((err: unknown) => send(res, 500, { error: { message: String(err), type: 'server_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    failNext: (status) => void (failStatus = status),
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
