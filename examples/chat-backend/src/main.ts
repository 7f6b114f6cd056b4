// Starts the chat backend (the web viewer at http://127.0.0.1:PORT/): `node --conditions=@ctxgit/source --import tsx examples/chat-backend/src/main.ts`.
// Environment: CTXGIT_PROVIDER (openai-chat | anthropic, default openai-chat), OPENAI_API_KEY or ANTHROPIC_API_KEY,
// optional OPENAI_BASE_URL / ANTHROPIC_BASE_URL, CTXGIT_MODEL, CTXGIT_REPO (default ./.ctxgit-chat), PORT (default 3000).
import { openRepo } from '@ctxgit/commit';
import { anthropicClient, openaiClient } from './model-client.js';
import { buildServer } from './server.js';

const env = process.env;
const provider = env['CTXGIT_PROVIDER'] ?? 'openai-chat';
if (provider !== 'openai-chat' && provider !== 'anthropic') throw new Error(`CTXGIT_PROVIDER must be openai-chat or anthropic, not ${provider}`);
const keyName = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
const apiKey = env[keyName];
if (apiKey === undefined || apiKey === '') throw new Error(`set ${keyName} to call the ${provider} API`);
const baseURL = env[provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'];
const connection = { apiKey, ...(baseURL === undefined ? {} : { baseURL }) };
const client = provider === 'anthropic' ? anthropicClient(connection) : openaiClient(connection);
const repo = await openRepo({ dir: env['CTXGIT_REPO'] ?? '.ctxgit-chat' });
const model = env['CTXGIT_MODEL'];
const app = buildServer({ repo, client, ...(model === undefined ? {} : { model }) });
const address = await app.listen({ port: Number(env['PORT'] ?? 3000), host: '127.0.0.1' });
console.log(`ctxgit chat backend (${provider}) on ${address}`);
