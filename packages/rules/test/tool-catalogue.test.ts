import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogueTool } from '../src/index.js';
import { createToolCatalogue, MAX_CATALOGUE_TOOLS, ToolCatalogueError } from '../src/index.js';

const schema = { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] };

function refused(tools: unknown): ToolCatalogueError {
  try {
    createToolCatalogue(tools as CatalogueTool[]);
  } catch (e) {
    expect(e).toBeInstanceOf(ToolCatalogueError);
    expect((e as ToolCatalogueError).code).toBe('E_RULES_TOOL_CATALOGUE');
    return e as ToolCatalogueError;
  }
  throw new Error('accepted');
}

describe('createToolCatalogue', () => {
  it('builds the tree of groups, in path order whatever the input order', () => {
    const tools: CatalogueTool[] = [
      { path: 'security/scan/port_scan', description: 'Scan the TCP ports of a host.', parameters: schema },
      { path: 'files/read_file', description: 'Read a file.' },
      { path: 'security/audit_log' },
      { path: 'whoami' },
    ];
    const c = createToolCatalogue(tools);
    expect(c.tools.map((t) => t.path)).toEqual(['files/read_file', 'security/audit_log', 'security/scan/port_scan', 'whoami']);
    expect(createToolCatalogue([...tools].reverse()).tools).toEqual(c.tools);
    expect(c.group('')).toEqual({ path: '', tools: ['whoami'], groups: ['files', 'security'], total: 4 });
    expect(c.group('security')).toEqual({ path: 'security', tools: ['security/audit_log'], groups: ['security/scan'], total: 2 });
    expect(c.groupCount).toBe(3);
    expect(c.byName('port_scan')?.path).toBe('security/scan/port_scan');
    expect(c.advertised('security/scan/port_scan')).toEqual({ name: 'port_scan', description: 'Scan the TCP ports of a host.', parameters: schema });
    expect(c.search(['port', 'scan'], 5)).toEqual(['security/scan/port_scan']);
  });

  it('refuses duplicate names, naming the tool', () => {
    const e = refused([{ path: 'a/run' }, { path: 'b/run' }]);
    expect(e.data).toMatchObject({ tool: 'b/run', problem: 'duplicate_name' });
    expect(e.message).toContain('a/run');
  });

  it.each([
    ['a name over 64 characters', `g/${'x'.repeat(65)}`, 'invalid_name'],
    ['a dot in the name', 'g/read.file', 'invalid_name'],
    ['a space in the name', 'g/read file', 'invalid_name'],
    ['a non-ASCII name', 'g/lire_fichié', 'invalid_name'],
    ['an empty group', 'g//read', 'invalid_path'],
    ['a group with a dot', '.git/read', 'invalid_path'],
    ['the navigation tool', 'nav/open_tools', 'reserved_name'],
    ['nine segments', 'a/b/c/d/e/f/g/h/tool', 'invalid_path'],
  ])('refuses %s', (_what, path, problem) => {
    expect(refused([{ path: 'ok/fine' }, { path }]).data).toMatchObject({ tool: path, problem });
  });

  it.each([
    ['a non-object schema', []],
    ['a schema of a string', { type: 'string' }],
    ['an unknown type', { type: 'object', properties: { a: { type: 'text' } } }],
    ['required naming no property', { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }],
    ['a bad pattern', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }],
    ['an empty enum', { type: 'object', properties: { a: { enum: [] } } }],
    ['a negative length', { type: 'object', properties: { a: { type: 'string', maxLength: -1 } } }],
    ['a function inside', { type: 'object', properties: { a: { type: 'string', default: () => 1 } } }],
    ['a bad items schema', { type: 'object', properties: { a: { type: 'array', items: 3 } } }],
    ['an empty anyOf', { type: 'object', properties: { a: { anyOf: [] } } }],
  ])('refuses %s as parameters', (_what, parameters) => {
    const e = refused([{ path: 'g/tool', parameters }]);
    expect(e.data).toMatchObject({ tool: 'g/tool', problem: 'invalid_schema' });
  });

  it('refuses a path that is also a group, a non-list, a non-object, unknown fields and a bad description', () => {
    expect(refused([{ path: 'a/b' }, { path: 'a/b/c' }]).data).toMatchObject({ tool: 'a/b', problem: 'group_conflict' });
    expect(refused('tools').data).toMatchObject({ problem: 'not_a_list' });
    expect(refused([null]).data).toMatchObject({ tool: '#0', problem: 'not_an_object' });
    expect(refused([{ path: 'a/b', name: 'b' }]).data).toMatchObject({ tool: 'a/b', problem: 'not_an_object' });
    expect(refused([{ path: 'a/b', description: 3 }]).data).toMatchObject({ tool: 'a/b', problem: 'invalid_description' });
    expect(refused(Array.from({ length: MAX_CATALOGUE_TOOLS + 1 }, (_, i) => ({ path: `t${i}` }))).data).toMatchObject({ problem: 'too_many_tools' });
  });

  it('accepts the schema shapes real tools use', () => {
    const parameters = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['a', 'b'], description: 'mode' },
        n: { type: ['integer', 'null'], minimum: 0, maximum: 10 },
        tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, minItems: 1 },
        opts: { type: 'object', additionalProperties: false, properties: { x: { $ref: '#/$defs/x' } } },
        any: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['mode'],
      $defs: { x: { type: 'boolean' } },
    };
    expect(createToolCatalogue([{ path: 'g/t', parameters }]).tools[0]?.parameters).toEqual(parameters);
  });

  it('never accepts an invalid name (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 80 }).filter((s) => !s.includes('/')), (name) => {
        const valid = /^[a-zA-Z0-9_-]{1,64}$/.test(name) && name !== 'open_tools';
        let ok = true;
        try {
          createToolCatalogue([{ path: `g/${name}` }]);
        } catch (e) {
          if (!(e instanceof ToolCatalogueError)) throw e;
          ok = false;
        }
        return ok === valid;
      }),
    );
  });
});
