import type { CatalogueTool, JsonSchema } from '@ctxgit/rules';

/** A deterministic PRNG: a 31-bit linear congruential generator (the constants of C's `rand`), enough to vary shapes. */
function prng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 1;
    return x / 2147483648;
  };
}

/** Top-level domains → sub-groups → the nouns their tools act on. */
const DOMAINS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  cloud: { compute: ['instance', 'image', 'autoscaler', 'snapshot'], storage: ['bucket', 'object', 'volume', 'lifecycle'], network: ['vpc', 'subnet', 'firewall_rule', 'load_balancer'], iam: ['role', 'policy', 'service_account', 'access_key'] },
  security: { scan: ['port', 'host', 'certificate', 'web_app'], audit: ['audit_log', 'permission', 'login', 'compliance_report'], secrets: ['secret', 'vault_key', 'token', 'password'], ctf: ['binary', 'packet_capture', 'cipher', 'challenge'] },
  dev: { editor: ['file', 'buffer', 'selection', 'symbol'], shell: ['command', 'process', 'environment', 'script'], vcs: ['branch', 'commit', 'pull_request', 'tag'], ci: ['pipeline', 'job', 'artifact', 'runner'], packages: ['package', 'dependency', 'lockfile', 'registry'] },
  data: { sql: ['table', 'query', 'index', 'migration'], warehouse: ['dataset', 'partition', 'view', 'export'], analytics: ['dashboard', 'metric', 'report', 'funnel'], etl: ['connector', 'transform', 'schedule', 'sync'] },
  comms: { email: ['email', 'thread', 'draft', 'mailbox'], chat: ['channel', 'message', 'reaction', 'thread_reply'], sms: ['sms', 'phone_number', 'delivery_report', 'template'], calls: ['call', 'recording', 'voicemail', 'conference'] },
  finance: { payments: ['payment', 'refund', 'payout', 'dispute'], invoices: ['invoice', 'credit_note', 'tax_rate', 'quote'], ledger: ['journal_entry', 'account', 'balance', 'reconciliation'], fx: ['exchange_rate', 'conversion', 'currency', 'hedge'] },
  crm: { contacts: ['contact', 'company', 'lead', 'segment'], deals: ['deal', 'pipeline_stage', 'forecast', 'quote_line'], tickets: ['ticket', 'sla', 'macro', 'satisfaction_survey'], campaigns: ['campaign', 'audience', 'landing_page', 'ab_test'] },
  travel: { airline: ['flight', 'seat', 'fare', 'boarding_pass'], hotels: ['hotel', 'room', 'booking', 'loyalty_account'], cars: ['car_rental', 'pickup', 'insurance', 'driver'], itineraries: ['itinerary', 'trip', 'visa', 'travel_alert'] },
  productivity: { calendar: ['event', 'calendar', 'availability', 'reminder'], todo: ['task', 'project', 'label', 'checklist'], docs: ['document', 'comment', 'template_doc', 'folder'], notes: ['note', 'notebook', 'tag_note', 'attachment'] },
  media: { images: ['image_file', 'thumbnail', 'watermark', 'album'], video: ['video', 'caption', 'transcode_job', 'stream'], audio: ['audio_track', 'podcast', 'transcript', 'playlist'] },
  iot: { devices: ['device', 'firmware', 'sensor', 'gateway'], telemetry: ['reading', 'alarm', 'threshold', 'time_series'], home: ['light', 'thermostat', 'lock', 'camera'] },
  web: { fetch: ['web_page', 'url', 'sitemap', 'feed'], search: ['web_result', 'news_article', 'image_result', 'scholar_paper'], browser: ['tab', 'form', 'screenshot', 'cookie'] },
  support: { escalation: ['escalation', 'agent', 'queue', 'handoff'], knowledge: ['article', 'faq', 'snippet', 'category'] },
  util: { math: ['expression', 'unit', 'statistic', 'matrix'], text: ['text', 'regex', 'diff', 'translation'], time: ['timezone', 'date', 'duration', 'holiday'], reasoning: ['plan', 'thought', 'scratchpad', 'checklist_item'] },
};

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'describe', 'export', 'validate', 'archive', 'restore', 'sync'];

const PARAMS: readonly { readonly key: string; readonly schema: (noun: string) => JsonSchema }[] = [
  { key: 'id', schema: (n) => ({ type: 'string', description: `Identifier of the ${n.replace(/_/g, ' ')}.` }) },
  { key: 'name', schema: (n) => ({ type: 'string', description: `Display name of the ${n.replace(/_/g, ' ')}.` }) },
  { key: 'limit', schema: () => ({ type: 'integer', minimum: 1, maximum: 500, description: 'Maximum number of results to return.' }) },
  { key: 'cursor', schema: () => ({ type: 'string', description: 'Opaque pagination cursor from a previous call.' }) },
  { key: 'dry_run', schema: () => ({ type: 'boolean', description: 'Validate the request without applying any change.' }) },
  { key: 'region', schema: () => ({ type: 'string', enum: ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'], description: 'Region to operate in.' }) },
  { key: 'tags', schema: () => ({ type: 'array', items: { type: 'string' }, description: 'Tags to attach, as key=value strings.' }) },
  { key: 'filter', schema: (n) => ({ type: 'object', description: `Filter on ${n.replace(/_/g, ' ')} fields.`, properties: { field: { type: 'string' }, op: { type: 'string', enum: ['eq', 'ne', 'lt', 'gt', 'contains'] }, value: { type: 'string' } }, required: ['field', 'op', 'value'] }) },
  { key: 'since', schema: () => ({ type: 'string', format: 'date-time', description: 'Only items changed after this ISO 8601 time.' }) },
  { key: 'format', schema: () => ({ type: 'string', enum: ['json', 'csv', 'markdown'], description: 'Output format of the result.' }) },
  { key: 'reason', schema: () => ({ type: 'string', description: 'Free-text reason, recorded in the audit trail.' }) },
  { key: 'notify', schema: () => ({ type: 'boolean', description: 'Send a notification to the owners when done.' }) },
];

const words = (s: string): string => s.replace(/_/g, ' ');

/** Where a corpus tool lives in the synthetic tree, by the words of its name. */
function groupOfCorpusTool(name: string): string {
  const n = name.toLowerCase();
  if (/reservation|baggage|passenger|book/.test(n)) return 'travel/airline/reservations';
  if (/flight|airport/.test(n)) return 'travel/airline/flights';
  if (/user|certificate/.test(n)) return 'travel/airline/customers';
  if (/transfer|human/.test(n)) return 'support/escalation';
  if (/think|calculate/.test(n)) return 'util/reasoning';
  if (/todo/.test(n)) return 'productivity/todo';
  if (/tshark|disassemble|rsactf|connect_|strings|decompile/.test(n)) return 'security/ctf';
  if (/edit|open|create|insert|find_file|cursor|submit|goto|scroll|search_|replace|write|read/.test(n)) return 'dev/editor';
  return 'dev/shell';
}

/** A tool name made valid for every provider (`^[a-zA-Z0-9_-]{1,64}$`). */
export const providerSafeName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';

/**
 * A deterministic catalogue of `size` tools in realistic shapes: 14 domains, 3–5 sub-groups each, verb_noun tools
 * with 1–3 typed parameters (ids, limits, enums, arrays, nested filters), plus the tools the corpus sessions call,
 * placed in the groups their names suggest, with descriptions written the same way.
 *
 * @param corpusTools - names the corpus calls (made provider-safe), kept whatever the size
 * @param size - tools in all @defaultValue 1000
 * @param seed - PRNG seed @defaultValue 22
 * @returns the tools, in path order
 * @example
 * ```ts
 * syntheticCatalogue(['bash', 'book_reservation']).length; // 1000
 * ```
 */
export function syntheticCatalogue(corpusTools: readonly string[], size = 1000, seed = 22): CatalogueTool[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const tools = new Map<string, CatalogueTool>();
  const names = new Set<string>();
  const params = (noun: string, verb: string): JsonSchema => {
    const count = 1 + Math.floor(rnd() * 3);
    const keys = new Set<string>(['id']);
    while (keys.size < count) keys.add(pick(PARAMS).key);
    const properties: Record<string, JsonSchema> = {};
    for (const k of keys) properties[k] = (PARAMS.find((p) => p.key === k) as (typeof PARAMS)[number]).schema(noun);
    const required = verb === 'list' || verb === 'search' ? [] : ['id'];
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  };
  for (const raw of [...new Set(corpusTools.map(providerSafeName))].sort()) {
    const group = groupOfCorpusTool(raw);
    names.add(raw);
    const subject = words(raw).toLowerCase();
    tools.set(`${group}/${raw}`, {
      path: `${group}/${raw}`,
      description: `${subject.charAt(0).toUpperCase()}${subject.slice(1)}: ${words(group.split('/').slice(1).join(' '))} operation. Returns the result as text.`,
      parameters: params(subject, 'run'),
    });
  }
  const slots: { group: string; noun: string }[] = [];
  for (const [domain, subs] of Object.entries(DOMAINS)) for (const [sub, nouns] of Object.entries(subs)) for (const noun of nouns) slots.push({ group: `${domain}/${sub}`, noun });
  for (let i = 0; tools.size < size; i++) {
    const slot = slots[i % slots.length] as { group: string; noun: string };
    const verb = VERBS[Math.floor(i / slots.length) % VERBS.length] as string;
    const name = `${verb}_${slot.noun}`;
    if (names.has(name)) continue;
    names.add(name);
    const noun = words(slot.noun);
    const plural = verb === 'list' || verb === 'search' || verb === 'export';
    tools.set(`${slot.group}/${name}`, {
      path: `${slot.group}/${name}`,
      description:
        `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${plural ? `${noun}s` : `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`} in ${words(slot.group.replace('/', ' '))}. ` +
        `${pick(['Requires the caller to hold the matching permission.', 'Changes are recorded in the audit log.', 'Results are paginated; pass the cursor to continue.', 'Idempotent: repeating the call has no further effect.'])}`,
      parameters: params(noun, verb),
    });
  }
  return [...tools.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}
