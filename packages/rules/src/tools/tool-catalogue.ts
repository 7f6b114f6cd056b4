import type { AdvertisedTool, CatalogueTool } from './catalogue-tool.js';
import { parentGroup, toolName } from './catalogue-tool.js';
import { schemaFault } from './check-schema.js';
import { ToolCatalogueError } from './tool-catalogue-error.js';
import { wordsOf } from './words.js';

/** Name of the navigation tool every view advertises. */
export const OPEN_TOOLS = 'open_tools';

/** Every segment of a tool path, and a tool name, as both OpenAI and Anthropic accept a tool name. */
const SEGMENT = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_DEPTH = 8;
/** Most tools of one catalogue. */
export const MAX_CATALOGUE_TOOLS = 20_000;

/** A group of the tree: its direct tools and sub-groups (paths, in path order) and how many tools lie below it. */
export interface ToolGroup {
  readonly path: string;
  readonly tools: readonly string[];
  readonly groups: readonly string[];
  readonly total: number;
}

interface Words {
  readonly name: ReadonlySet<string>;
  readonly path: ReadonlySet<string>;
  readonly text: ReadonlySet<string>;
}

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A validated tool catalogue: a tree of groups whose leaves are tools, with word search. Immutable; the same tools in
 * any order give the same catalogue (tools are kept in path order). Build one with {@link createToolCatalogue}.
 */
export class ToolCatalogue {
  /** The tools, in path order. */
  readonly tools: readonly CatalogueTool[];
  readonly #byName = new Map<string, CatalogueTool>();
  readonly #byPath = new Map<string, CatalogueTool>();
  readonly #groups = new Map<string, { tools: string[]; groups: string[]; total: number }>();
  readonly #words = new Map<string, Words>();

  /** @internal use {@link createToolCatalogue} */
  constructor(tools: readonly CatalogueTool[]) {
    this.tools = tools;
    this.#groups.set('', { tools: [], groups: [], total: 0 });
    for (const t of tools) {
      this.#byName.set(toolName(t.path), t);
      this.#byPath.set(t.path, t);
      this.#words.set(t.path, { name: new Set(wordsOf(toolName(t.path))), path: new Set(wordsOf(parentGroup(t.path))), text: new Set(wordsOf(t.description ?? '')) });
      let child = t.path;
      let group = parentGroup(t.path);
      let isTool = true;
      for (;;) {
        let g = this.#groups.get(group);
        const fresh = g === undefined;
        if (g === undefined) this.#groups.set(group, (g = { tools: [], groups: [], total: 0 }));
        g.total += 1;
        if (isTool) g.tools.push(child);
        else if (fresh || !g.groups.includes(child)) g.groups.push(child);
        if (group === '') break;
        isTool = false;
        child = group;
        group = parentGroup(group);
      }
    }
    for (const g of this.#groups.values()) g.groups.sort(byPath);
  }

  /** The tool named `name` (the last segment of its path), or undefined. */
  byName(name: string): CatalogueTool | undefined {
    return this.#byName.get(name);
  }

  /** The tool at `path`, or undefined. */
  byPath(path: string): CatalogueTool | undefined {
    return this.#byPath.get(path);
  }

  /** The group at `path` (`''` is the top level), or undefined. */
  group(path: string): ToolGroup | undefined {
    const g = this.#groups.get(path);
    return g === undefined ? undefined : { path, tools: g.tools, groups: g.groups, total: g.total };
  }

  /** Number of groups below the top level. */
  get groupCount(): number {
    return this.#groups.size - 1;
  }

  /**
   * How well a tool matches `words`: 3 per word in its name, 2 in its group path, 1 in its description, and 2 more
   * when every word of its name is among them (`file` ranks the tool `file` above `get_file`).
   */
  score(path: string, words: readonly string[]): number {
    const w = this.#words.get(path);
    if (w === undefined) return 0;
    let s = 0;
    let named = 0;
    for (const word of words) {
      if (w.name.has(word)) named += 1;
      s += w.name.has(word) ? 3 : w.path.has(word) ? 2 : w.text.has(word) ? 1 : 0;
    }
    return named > 0 && named === w.name.size ? s + 2 : s;
  }

  /**
   * The tools best matching `query`, at most `limit`, best first (ties in path order); tools scoring 0 are left out.
   * A string query is split into words first (camelCase and snake_case split, lower-cased, stop words dropped).
   */
  search(query: string | readonly string[], limit: number): string[] {
    const words = typeof query === 'string' ? wordsOf(query) : query;
    if (words.length === 0 || limit <= 0) return [];
    const scored: { path: string; s: number }[] = [];
    for (const t of this.tools) {
      const s = this.score(t.path, words);
      if (s > 0) scored.push({ path: t.path, s });
    }
    scored.sort((a, b) => b.s - a.s || byPath(a.path, b.path));
    return scored.slice(0, limit).map((x) => x.path);
  }

  /**
   * The branches of a group shown at once: at most `limit` of its tools and sub-groups together, those matching
   * `words` best first (a sub-group scores as its best tool), then the largest, then in path order; `hidden` counts
   * the rest.
   */
  branches(path: string, words: readonly string[], limit: number): { tools: string[]; groups: string[]; hidden: number } {
    const g = this.#groups.get(path);
    if (g === undefined) return { tools: [], groups: [], hidden: 0 };
    const best = new Map<string, number>();
    if (words.length > 0) {
      for (const t of this.tools) {
        if (path !== '' && !t.path.startsWith(`${path}/`)) continue;
        const s = this.score(t.path, words);
        if (s === 0) continue;
        const rest = path === '' ? t.path : t.path.slice(path.length + 1);
        const slash = rest.indexOf('/');
        const branch = slash < 0 ? t.path : `${path === '' ? '' : `${path}/`}${rest.slice(0, slash)}`;
        best.set(branch, Math.max(best.get(branch) ?? 0, s));
      }
    }
    const size = (branch: string): number => this.#groups.get(branch)?.total ?? 1;
    const all = [...g.tools, ...g.groups].sort((a, b) => (best.get(b) ?? 0) - (best.get(a) ?? 0) || size(b) - size(a) || byPath(a, b));
    const shown = new Set(all.slice(0, limit));
    return { tools: g.tools.filter((t) => shown.has(t)), groups: g.groups.filter((x) => shown.has(x)), hidden: all.length - shown.size };
  }

  /** The tool as a request declares it. */
  advertised(path: string): AdvertisedTool | undefined {
    const t = this.#byPath.get(path);
    if (t === undefined) return undefined;
    return { name: toolName(path), ...(t.description === undefined ? {} : { description: t.description }), ...(t.parameters === undefined ? {} : { parameters: t.parameters }) };
  }
}

/**
 * Validates a list of tools and builds their catalogue. Nothing about the input is trusted: paths and names are
 * checked against what OpenAI and Anthropic accept (`^[a-zA-Z0-9_-]{1,64}$` per segment), names must be unique and
 * not {@link OPEN_TOOLS}, a path may not also be a group, descriptions are strings and parameters a JSON Schema of an
 * object (see `schemaFault`). At most {@link MAX_CATALOGUE_TOOLS} tools.
 *
 * @param tools - the tools, in any order
 * @returns the catalogue, tools in path order
 * @throws {@link ToolCatalogueError} naming the first faulty tool (`data.tool`) and the fault (`data.problem`)
 * @example
 * ```ts
 * const catalogue = createToolCatalogue([
 *   { path: 'security/scan/port_scan', description: 'Scan the TCP ports of a host.', parameters: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] } },
 *   { path: 'files/read_file', description: 'Read a file.' },
 * ]);
 * catalogue.byName('port_scan')?.path; // 'security/scan/port_scan'
 * ```
 */
export function createToolCatalogue(tools: readonly CatalogueTool[]): ToolCatalogue {
  if (!Array.isArray(tools)) throw new ToolCatalogueError('(catalogue)', 'not_a_list', 'the catalogue must be an array of { path, description?, parameters? }');
  if (tools.length > MAX_CATALOGUE_TOOLS) throw new ToolCatalogueError('(catalogue)', 'too_many_tools', `${tools.length} tools, at most ${MAX_CATALOGUE_TOOLS}`);
  const names = new Map<string, string>();
  const paths = new Set<string>();
  const groups = new Set<string>();
  const out: CatalogueTool[] = [];
  tools.forEach((t: unknown, index) => {
    const label = typeof t === 'object' && t !== null && typeof (t as { path?: unknown }).path === 'string' ? (t as { path: string }).path : `#${index}`;
    const fail = (problem: ConstructorParameters<typeof ToolCatalogueError>[1], detail: string): never => {
      throw new ToolCatalogueError(label, problem, detail);
    };
    if (typeof t !== 'object' || t === null || Array.isArray(t)) fail('not_an_object', 'expected { path, description?, parameters? }');
    const { path, description, parameters, ...rest } = t as CatalogueTool & Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) fail('not_an_object', `unknown field ${JSON.stringify(extra[0])}; a tool has path, description and parameters`);
    if (typeof path !== 'string') fail('invalid_path', 'path must be a string like "group/sub/name"');
    const segments = path.split('/');
    if (segments.length > MAX_DEPTH) fail('invalid_path', `${segments.length} segments, at most ${MAX_DEPTH}`);
    const badSegment = segments.find((s) => !SEGMENT.test(s));
    if (badSegment !== undefined) {
      fail(segments.length > 1 && badSegment !== segments[segments.length - 1] ? 'invalid_path' : 'invalid_name', `${JSON.stringify(badSegment)} does not match ^[a-zA-Z0-9_-]{1,64}$, which OpenAI and Anthropic require of tool names (use it for group names too)`);
    }
    const name = toolName(path);
    if (name === OPEN_TOOLS) fail('reserved_name', `"${OPEN_TOOLS}" is the navigation tool ctxgit adds; rename the tool`);
    const other = names.get(name);
    if (other !== undefined) fail('duplicate_name', `the name "${name}" is also the name of ${other}; a model calls tools by name, so names must be unique`);
    if (description !== undefined && typeof description !== 'string') fail('invalid_description', 'description must be a string');
    if (parameters !== undefined) {
      const why = schemaFault(parameters);
      if (why !== undefined) fail('invalid_schema', `invalid JSON Schema: ${why}`);
    }
    names.set(name, path);
    paths.add(path);
    for (let g = parentGroup(path); g !== ''; g = parentGroup(g)) groups.add(g);
    out.push({ path, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters: structuredClone(parameters) }) });
  });
  for (const p of paths) if (groups.has(p)) throw new ToolCatalogueError(p, 'group_conflict', `"${p}" is both a tool and a group; rename one`);
  out.sort((a, b) => byPath(a.path, b.path));
  return new ToolCatalogue(out);
}
