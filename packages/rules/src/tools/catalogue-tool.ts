/** A JSON Schema object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** One tool of a catalogue: where it lives in the tree of groups, and what a provider is told about it. */
export interface CatalogueTool {
  /**
   * Group path and name, `/`-separated, e.g. `security/scan/port_scan`: the last segment is the tool's name, unique
   * in the catalogue; every segment matches `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and Anthropic accept as a tool
   * name); at most 8 segments.
   */
  readonly path: string;
  /** What the tool does; shown to the model and searched by {@link ToolCatalogue.search}. */
  readonly description?: string;
  /** JSON Schema of the arguments object. @defaultValue `{ type: 'object' }` */
  readonly parameters?: JsonSchema;
}

/** A tool as a request declares it (the provider-neutral shape `render` maps to each provider's schema). */
export interface AdvertisedTool {
  /** `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the arguments object. @defaultValue `{ type: 'object' }` */
  readonly parameters?: JsonSchema;
}

/** The name of a tool path: its last segment. */
export const toolName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The group of a tool or group path: everything before its last segment (`''` for the top level). */
export const parentGroup = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
