import type { CatalogueTool } from './catalogue-tool.js';
import { parentGroup, toolName } from './catalogue-tool.js';
import { parseOpenTools } from './open-tools-call.js';
import { OPEN_TOOLS, type ToolCatalogue } from './tool-catalogue.js';
import { advertisedPaths, type ToolView } from './tool-view.js';
import type { ResolvedToolViewOptions } from './tool-view-options.js';
import { wordsOf } from './words.js';

/**
 * What the backend should do with one tool call of the model:
 * - `navigation`: an `open_tools` call; append `output` as its result (`isError` when the arguments were wrong).
 *   The view changes at the next commit.
 * - `advertised`: a catalogue tool the commit advertised; run it.
 * - `opened`: a catalogue tool the commit did not advertise, called by its exact name; run it in this round all
 *   the same. Its group opens at the next commit (with `deferCalledGroups`, at the next change of the view); `note`
 *   says so, for the logs or the result.
 * - `unknown`: no tool has this name in the catalogue (it may be one of the backend's own tools); `output` is a
 *   result to send back when it is not.
 */
export type ToolCallResolution =
  | { readonly kind: 'navigation'; readonly isError: boolean; readonly output: string }
  | { readonly kind: 'advertised'; readonly tool: CatalogueTool }
  | { readonly kind: 'opened'; readonly tool: CatalogueTool; readonly group: string; readonly note: string }
  | { readonly kind: 'unknown'; readonly name: string; readonly output: string };

const oneLine = (text: string | undefined): string => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return t.length > 100 ? `${t.slice(0, 99)}…` : t;
};

/**
 * Resolves one tool call of the model against the catalogue and the view of the commit the call was made with. Pure:
 * it reads nothing else, and the next commit derives the same change of the view from the recorded call.
 *
 * @param catalogue - the session's catalogue
 * @param view - the view of the commit the model was called with
 * @param call - the call's tool name and arguments (an object or its JSON text)
 * @param options - resolved {@link ToolViewOptions}
 * @returns what to do, see {@link ToolCallResolution}
 * @example
 * ```ts
 * const r = resolveToolCall(catalogue, view, { name: 'open_tools', input: { open: 'security/scan' } }, resolveToolViewOptions());
 * if (r.kind === 'navigation') await session.append({ role: 'tool', name: 'open_tools', input: { open: 'security/scan' }, output: r.output, caller });
 * ```
 */
export function resolveToolCall(
  catalogue: ToolCatalogue,
  view: ToolView | undefined,
  call: { readonly name: string; readonly input?: unknown },
  options: ResolvedToolViewOptions,
): ToolCallResolution {
  if (call.name === OPEN_TOOLS) return navigate(catalogue, view, call.input, options);
  const tool = catalogue.byName(call.name);
  if (tool === undefined) {
    return { kind: 'unknown', name: call.name, output: `There is no tool named "${call.name}". Search the catalogue with ${OPEN_TOOLS} {"search": "<words>"}.` };
  }
  if (view !== undefined && advertisedPaths(view).includes(tool.path)) return { kind: 'advertised', tool };
  const group = parentGroup(tool.path);
  return { kind: 'opened', tool, group, note: `${toolName(tool.path)} was not advertised; it ran, and its group ${group === '' ? '(top level)' : group} opens with the next change of the tool view; until then call it by name.` };
}

function navigate(catalogue: ToolCatalogue, view: ToolView | undefined, input: unknown, o: ResolvedToolViewOptions): ToolCallResolution {
  const req = parseOpenTools(input);
  if (typeof req === 'string') return { kind: 'navigation', isError: true, output: `Invalid ${OPEN_TOOLS} call: ${req}.` };
  const lines: string[] = [];
  let isError = false;
  const words = view?.words ?? [];
  if (req.close !== undefined) {
    const open = view?.entries.some((e) => e.id === req.close || (req.close === 'search' && e.kind === 'search')) ?? false;
    lines.push(open ? `Closed ${req.close}.` : `${req.close} is not open.`);
  }
  if (req.open !== undefined) {
    if (catalogue.group(req.open) === undefined) {
      isError = true;
      const top = catalogue.branches('', [], o.maxBranches);
      lines.push(`There is no group "${req.open}". Top-level groups: ${top.groups.join(', ') || '(none)'}; or search by words.`);
    } else {
      const b = catalogue.branches(req.open, words, o.maxBranches);
      const tools = b.tools.map((t) => `${toolName(t)} (${oneLine(catalogue.byPath(t)?.description)})`);
      lines.push(
        `Opened ${req.open}: ${tools.length > 0 ? `${tools.join('; ')} — advertised from your next call` : 'no tools directly in it'}.` +
          (b.groups.length > 0 ? ` Sub-groups: ${b.groups.join(', ')}.` : '') +
          (b.hidden > 0 ? ` ${b.hidden} more not shown: search by words to reach them.` : ''),
      );
    }
  }
  if (req.search !== undefined) {
    const hits = catalogue.search(wordsOf(req.search), o.maxBranches);
    lines.push(
      hits.length === 0
        ? `Nothing matches "${req.search}". Try other words, or open a group.`
        : `Found (advertised from your next call): ${hits.map((h) => `${h} — ${oneLine(catalogue.byPath(h)?.description)}`).join('; ')}.`,
    );
  }
  return { kind: 'navigation', isError, output: lines.join('\n') };
}
