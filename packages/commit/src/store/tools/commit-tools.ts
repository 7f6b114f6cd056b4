import type { AdvertisedTool, ToolView } from '@ctxgit/rules';
import { advertisedPaths } from '@ctxgit/rules';
import { UnknownCommitError } from '../../errors.js';
import { canonicalJson } from '@ctxgit/dag';
import type { GitContext } from '../../git/git-context.js';
import { readBlob } from '../../git/read-blob.js';
import { readPath } from '../../git/read-path.js';
import type { TreeEdit } from '../../git/tree-edit.js';
import { writeBlob } from '../../git/write-blob.js';
import { toolBlobPath } from './catalogue-tree.js';

/** Folder of a ContextCommit's tree that holds its tools. */
export const TOOLS_DIR = 'tools';
const VIEW_FILE = 'view.json';
const CATALOGUE_DIR = 'catalogue';

/** The tools a ContextCommit advertises, and the navigable view they come from. */
export interface CommitTools {
  /** The tool definitions of the request, in order, `open_tools` last; `render` emits exactly these. */
  readonly advertised: readonly AdvertisedTool[];
  /** The view: open groups, search, navigation counters. */
  readonly view: ToolView;
  /** Oid of the catalogue tree the view was taken from. */
  readonly catalogue: string;
}

/** Contents of `tools/view.json`. */
interface ViewFile {
  readonly format: 1;
  readonly view: ToolView;
  /** Tool paths advertised, in order (before `open_tools`). */
  readonly advertised: readonly string[];
  /** The `open_tools` definition of this view. */
  readonly openTools: AdvertisedTool;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The tree edits that record `tools` in a commit: `tools/view.json` and `tools/catalogue` (the catalogue tree itself). */
export async function toolsEdits(ctx: GitContext, tools: CommitTools): Promise<TreeEdit[]> {
  const openTools = tools.advertised[tools.advertised.length - 1] as AdvertisedTool;
  const file: ViewFile = { format: 1, view: tools.view, advertised: advertisedPaths(tools.view), openTools };
  const view = await writeBlob(ctx, `${canonicalJson(file)}\n`);
  return [
    { path: [TOOLS_DIR, VIEW_FILE], oid: view, type: 'blob' },
    { path: [TOOLS_DIR, CATALOGUE_DIR], oid: tools.catalogue, type: 'tree' },
  ];
}

/** The edit that removes the tools of a base commit (its session has no catalogue any more). */
export const dropTools: TreeEdit = { path: [TOOLS_DIR], oid: null, type: 'tree' };

/** Reads the tools of a commit tree, or undefined when it has none: the view and the advertised tools' blobs. */
export async function readCommitTools(ctx: GitContext, oid: string, tree: string): Promise<CommitTools | undefined> {
  const viewOid = await readPath(ctx, tree, [TOOLS_DIR, VIEW_FILE]);
  const catalogue = await readPath(ctx, tree, [TOOLS_DIR, CATALOGUE_DIR]);
  if (viewOid === undefined || catalogue === undefined) return undefined;
  const file = JSON.parse(decoder.decode(await readBlob(ctx, viewOid))) as ViewFile;
  const advertised = await Promise.all(
    file.advertised.map(async (p) => {
      const blob = await readPath(ctx, catalogue, toolBlobPath(p));
      if (blob === undefined) throw new UnknownCommitError(oid, `tools/view.json names ${p}, which its catalogue lacks`);
      const { path, ...rest } = JSON.parse(decoder.decode(await readBlob(ctx, blob))) as { path: string; description?: string; parameters?: Record<string, unknown> };
      return { name: path.slice(path.lastIndexOf('/') + 1), ...rest };
    }),
  );
  return { advertised: [...advertised, file.openTools], view: file.view, catalogue };
}
