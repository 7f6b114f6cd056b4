import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogueTool, ToolRound, ToolView } from '../src/index.js';
import { advertisedPaths, advertisedTools, createToolCatalogue, nextToolView, OPEN_TOOLS, resolveToolCall, resolveToolViewOptions, RulesInputError } from '../src/index.js';

/** security (scan: 12 tools, audit: 3), files (20 tools), net/dns/.., 9 more top-level groups of 2 tools. */
function sampleTools(): CatalogueTool[] {
  const tools: CatalogueTool[] = [];
  const scans = ['port_scan', 'ping_sweep', 'os_detect', 'service_probe', 'vuln_scan', 'tls_check', 'banner_grab', 'web_crawl', 'dir_bust', 'sql_probe', 'xss_probe', 'smb_enum'];
  for (const n of scans) tools.push({ path: `security/scan/${n}`, description: `Security scanner ${n.replace('_', ' ')} of a host.` });
  for (const n of ['audit_log', 'audit_users', 'audit_perms']) tools.push({ path: `security/audit/${n}`, description: `Audit ${n}.` });
  for (let i = 0; i < 20; i++) tools.push({ path: `files/file_op_${i}`, description: `File operation number ${i}.` });
  tools.push({ path: 'files/read_file', description: 'Read the content of a file at a path.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } });
  tools.push({ path: 'net/dns/dns_lookup', description: 'Resolve a domain name.' });
  for (let g = 0; g < 9; g++) for (let t = 0; t < 2; t++) tools.push({ path: `misc${g}/tool_${g}_${t}`, description: `Miscellaneous tool ${g} ${t}.` });
  return tools;
}

const catalogue = createToolCatalogue(sampleTools());
const o = resolveToolViewOptions();
const run = (rounds: readonly ToolRound[], options = o): ToolView[] => {
  const views: ToolView[] = [];
  let v: ToolView | undefined;
  for (const r of rounds) views.push((v = nextToolView(catalogue, v, r, options)));
  return views;
};
const openCall = (args: Record<string, string>): ToolRound => ({ calls: [{ name: OPEN_TOOLS, input: args }] });
const last = <T>(xs: readonly T[]): T => xs[xs.length - 1] as T;

describe('the advertised view', () => {
  it('has defaults 7 branches, 4 open groups, search after 4 rounds, auto-open and deferred closes', () => {
    expect(o).toEqual({ maxBranches: 7, maxOpenGroups: 4, searchAfterRounds: 4, autoOpen: true, autoOpenGroups: 1, deferClose: true, deferCalledGroups: true });
    expect(() => resolveToolViewOptions({ maxBranches: 0 })).toThrow(RulesInputError);
    expect(() => resolveToolViewOptions({ autoOpen: 'yes' as unknown as boolean })).toThrow(RulesInputError);
  });

  it('is bounded: at most maxBranches per level, maxOpenGroups groups, open_tools last', () => {
    const groups = ['files', 'security/scan', 'security/audit', 'net/dns', 'misc0', 'misc1'];
    const views = run([{ userText: 'hello', calls: [] }, ...groups.map((g) => openCall({ open: g }))], { ...o, searchAfterRounds: 10 });
    for (const v of views) {
      expect(v.entries.filter((e) => e.kind === 'group').length).toBeLessThanOrEqual(4);
      for (const e of v.entries) expect(e.tools.length + e.groups.length).toBeLessThanOrEqual(7);
    }
    const v = last(views);
    expect(v.entries.map((e) => e.id)).toEqual(['security/audit', 'net/dns', 'misc0', 'misc1']); // files and security/scan were least recently used
    const files = views[1]?.entries.find((e) => e.id === 'files');
    expect(files?.tools).toHaveLength(7);
    expect(files?.hidden).toBe(14);
    const tools = advertisedTools(catalogue, v, { ...o, searchAfterRounds: 10 });
    expect(last(tools).name).toBe(OPEN_TOOLS);
    expect(tools.map((t) => t.name).slice(0, -1)).toEqual(advertisedPaths(v).map((p) => p.slice(p.lastIndexOf('/') + 1)));
    // the top level shows 7 of the 12 top-level groups, the largest ones, listed in path order, the rest are counted
    expect(last(tools).description).toContain('Top level: files/ (21 tools), misc0/ (2 tools), misc1/ (2 tools), misc2/ (2 tools), misc3/ (2 tools), misc4/ (2 tools), security/ (15 tools), +5 more (search to find them).');
  });

  it('ranks the branches of an opened group by the request words', () => {
    const [, v] = run([{ userText: 'read the file config.yaml', calls: [] }, openCall({ open: 'files' })]);
    expect(v?.entries.find((e) => e.id === 'files')?.tools).toContain('files/read_file');
  });

  it('opens a likely group up front from the request words (autoOpen)', () => {
    const [v] = run([{ userText: 'Please run a port scan of 10.0.0.7', calls: [] }]);
    expect(v?.entries.map((e) => e.id)).toEqual(['security/scan']);
    expect(advertisedPaths(v as ToolView)).toContain('security/scan/port_scan');
    const [off] = run([{ userText: 'Please run a port scan of 10.0.0.7', calls: [] }], { ...o, autoOpen: false });
    expect(off?.entries).toEqual([]);
    const [none] = run([{ userText: 'hi there', calls: [] }]);
    expect(none?.entries).toEqual([]);
  });

  it('a known tool that is not advertised runs, and its group opens at the next commit (deferCalledGroups: false)', () => {
    const eager = { ...o, deferCalledGroups: false };
    const [v0] = run([{ userText: 'hello', calls: [] }], eager);
    const r = resolveToolCall(catalogue, v0, { name: 'dns_lookup', input: { name: 'example.com' } }, eager);
    expect(r).toMatchObject({ kind: 'opened', group: 'net/dns', tool: { path: 'net/dns/dns_lookup' } });
    const v1 = nextToolView(catalogue, v0, { calls: [{ name: 'dns_lookup', input: { name: 'example.com' } }] }, eager);
    expect(advertisedPaths(v1)).toContain('net/dns/dns_lookup');
    expect(resolveToolCall(catalogue, v1, { name: 'dns_lookup' }, eager)).toMatchObject({ kind: 'advertised' });
    expect(resolveToolCall(catalogue, v1, { name: 'rm_rf' }, eager)).toMatchObject({ kind: 'unknown', name: 'rm_rf' });
    // a hidden tool of a big group is forced into the group's shown branches
    const v2 = nextToolView(catalogue, v1, { calls: [{ name: 'file_op_19' }, { name: 'file_op_18' }] }, eager);
    const files = v2.entries.find((e) => e.id === 'files');
    expect(files?.tools).toEqual(expect.arrayContaining(['files/file_op_18', 'files/file_op_19']));
    expect((files?.tools.length ?? 0) + (files?.groups.length ?? 0)).toBeLessThanOrEqual(7);
    // calling a third hidden one keeps the group's tools: the new one takes the place of the last
    const v3 = nextToolView(catalogue, v2, { calls: [{ name: 'file_op_17' }] }, eager);
    expect(v3.entries.find((e) => e.id === 'files')?.tools).toEqual(expect.arrayContaining(['files/file_op_17', 'files/file_op_18', 'files/file_op_19']));
  });

  it('by default the group of a tool called by name waits for the next change of the view', () => {
    const [v0] = run([{ userText: 'hello', calls: [] }]);
    const v1 = nextToolView(catalogue, v0, { calls: [{ name: 'dns_lookup' }, { name: 'audit_log' }] }, o);
    expect(advertisedPaths(v1)).toEqual([]); // nothing changed: the cached prefix stays
    expect(v1.pending).toEqual(['net/dns/dns_lookup', 'security/audit/audit_log']);
    expect(v1.changedAt).toBe(v0?.changedAt);
    expect(resolveToolCall(catalogue, v1, { name: 'dns_lookup' }, o)).toMatchObject({ kind: 'opened' }); // still runs by name
    const v2 = nextToolView(catalogue, v1, openCall({ open: 'misc0' }), o);
    expect(v2.entries.map((e) => e.id)).toEqual(['net/dns', 'security/audit', 'misc0']);
    expect(advertisedPaths(v2)).toEqual(expect.arrayContaining(['net/dns/dns_lookup', 'security/audit/audit_log']));
    expect(v2.pending).toEqual([]);
  });

  it('autoOpenGroups opens the groups of the best matches up front, and later only with another change', () => {
    const three = { ...o, autoOpenGroups: 3 };
    const [v0] = run([{ userText: 'scan a host, audit its log, then a dns lookup', calls: [] }], three);
    expect(v0?.entries.map((e) => e.id).sort()).toEqual(['net/dns', 'security/audit', 'security/scan']);
    const later = nextToolView(catalogue, v0, { userText: 'now read the file notes.txt', calls: [] }, three);
    expect(later.entries).toEqual(v0?.entries.map((e) => e)); // a later request alone changes nothing
    const withOpen = nextToolView(catalogue, v0, { userText: 'now read the file notes.txt', calls: [{ name: OPEN_TOOLS, input: { open: 'misc1' } }] }, three);
    expect(advertisedPaths(withOpen)).toContain('files/read_file');
  });

  it('navigation results say what the next commit advertises', () => {
    const [v0] = run([{ userText: 'hello', calls: [] }]);
    const opened = resolveToolCall(catalogue, v0, { name: OPEN_TOOLS, input: '{"open":"security"}' }, o);
    expect(opened).toMatchObject({ kind: 'navigation', isError: false });
    expect(opened.kind === 'navigation' && opened.output).toBe('Opened security: no tools directly in it. Sub-groups: security/audit, security/scan.');
    const bad = resolveToolCall(catalogue, v0, { name: OPEN_TOOLS, input: { open: 'nope' } }, o);
    expect(bad).toMatchObject({ kind: 'navigation', isError: true });
    expect(resolveToolCall(catalogue, v0, { name: OPEN_TOOLS, input: 7 }, o)).toMatchObject({ kind: 'navigation', isError: true });
    const found = resolveToolCall(catalogue, v0, { name: OPEN_TOOLS, input: { search: 'resolve domain' } }, o);
    expect(found.kind === 'navigation' && found.output).toContain('net/dns/dns_lookup');
    const v1 = nextToolView(catalogue, v0, { calls: [{ name: OPEN_TOOLS, input: { search: 'resolve domain' } }] }, o);
    expect(advertisedPaths(v1)).toEqual(['net/dns/dns_lookup']);
  });

  it('offers a search after 4 navigation rounds without a useful call', () => {
    const views = run([
      { userText: 'I need to resolve a domain name', calls: [] },
      openCall({ open: 'misc0' }),
      openCall({ open: 'misc1' }),
      openCall({ open: 'misc2' }),
      openCall({ open: 'misc3' }),
    ]);
    expect(views.map((v) => v.navRounds)).toEqual([0, 1, 2, 3, 4]);
    expect(views.map((v) => v.offered)).toEqual([false, false, false, false, true]);
    const v = last(views);
    const search = v.entries.find((e) => e.kind === 'search');
    expect(search?.tools).toContain('net/dns/dns_lookup');
    expect(last(advertisedTools(catalogue, v, o)).description).toContain('the catalogue was searched with the words of the request');
    // a useful call ends the navigation streak
    const after = nextToolView(catalogue, v, { calls: [{ name: 'dns_lookup' }] }, o);
    expect([after.navRounds, after.offered]).toEqual([0, false]);
    // with searchAfterRounds 2 it comes sooner
    expect(run([{ userText: 'resolve a domain', calls: [] }, openCall({ open: 'misc0' }), openCall({ open: 'misc1' })], { ...o, searchAfterRounds: 2 }).map((x) => x.offered)).toEqual([false, false, true]);
  });

  it('closing changes what is advertised at the next change of the view, never the catalogue', () => {
    const views = run([{ userText: 'hello', calls: [] }, openCall({ open: 'misc0' }), openCall({ open: 'misc1' }), openCall({ close: 'misc0' }), openCall({ open: 'net/dns' })]);
    const [, , opened, closed, next] = views;
    expect(advertisedPaths(closed as ToolView)).toEqual(advertisedPaths(opened as ToolView)); // deferred: the prefix stays
    expect(closed?.changedAt).toBe(opened?.round);
    expect(advertisedPaths(next as ToolView)).toEqual(['misc1/tool_1_0', 'misc1/tool_1_1', 'net/dns/dns_lookup']);
    const eager = run([{ userText: 'hello', calls: [] }, openCall({ open: 'misc0' }), openCall({ close: 'misc0' })], { ...o, deferClose: false });
    expect(advertisedPaths(last(eager))).toEqual([]);
    expect(catalogue.tools).toHaveLength(createToolCatalogue(sampleTools()).tools.length);
  });

  it('keeps the advertised order a stable prefix: groups opened later come after', () => {
    const views = run([{ userText: 'hello', calls: [] }, openCall({ open: 'misc0' }), openCall({ open: 'misc1' }), { calls: [{ name: 'tool_0_0' }] }]);
    const [, a, b, c] = views.map((v) => advertisedPaths(v));
    expect(b?.slice(0, a?.length)).toEqual(a);
    expect(c).toEqual(b);
    expect(views[3]?.changedAt).toBe(views[2]?.round); // a call of an advertised tool changes nothing
  });

  it('is deterministic and bounded for any sequence of rounds (property)', () => {
    const names = catalogue.tools.map((t) => t.path.slice(t.path.lastIndexOf('/') + 1));
    const groups = ['', 'files', 'security', 'security/scan', 'security/audit', 'net', 'net/dns', 'misc0', 'misc5', 'nope'];
    const call = fc.oneof(
      fc.constantFrom(...names).map((name) => ({ name })),
      fc.constantFrom(...groups).map((g) => ({ name: OPEN_TOOLS, input: { open: g } })),
      fc.constantFrom(...groups, 'search').map((g) => ({ name: OPEN_TOOLS, input: { close: g } })),
      fc.constantFrom('port scan', 'file', 'domain', 'xyz').map((q) => ({ name: OPEN_TOOLS, input: { search: q } })),
      fc.constant({ name: 'backend_tool' }),
    );
    const round = fc.record({ userText: fc.option(fc.constantFrom('scan ports', 'read a file', 'hello', 'audit users'), { nil: undefined }), calls: fc.array(call, { maxLength: 3 }) });
    const options = fc.record({ maxBranches: fc.integer({ min: 1, max: 9 }), maxOpenGroups: fc.integer({ min: 1, max: 5 }), searchAfterRounds: fc.integer({ min: 1, max: 5 }), autoOpen: fc.boolean(), deferClose: fc.boolean() });
    fc.assert(
      fc.property(fc.array(round, { minLength: 1, maxLength: 12 }), options, (raw, opts) => {
        const rounds = raw.map((r) => (r.userText === undefined ? { calls: r.calls } : { userText: r.userText, calls: r.calls }));
        const ro = resolveToolViewOptions(opts);
        const a = run(rounds, ro);
        const b = run(rounds, ro);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        for (const v of a) {
          expect(v.entries.filter((e) => e.kind === 'group').length).toBeLessThanOrEqual(ro.maxOpenGroups);
          expect(v.entries.filter((e) => e.kind === 'search').length).toBeLessThanOrEqual(1);
          for (const e of v.entries) expect(e.tools.length + e.groups.length).toBeLessThanOrEqual(ro.maxBranches);
          const tools = advertisedTools(catalogue, v, ro);
          expect(tools.length).toBeLessThanOrEqual((ro.maxOpenGroups + 1) * ro.maxBranches + 1);
          expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
          expect(JSON.stringify(JSON.parse(JSON.stringify(v)))).toBe(JSON.stringify(v)); // stored as JSON
        }
      }),
      { numRuns: 150 },
    );
  });
});
