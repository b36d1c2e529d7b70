// Which configuration keys the code of a process reads, derived from its sources with the
// TypeScript checker: every property read (`a.b`, `a['b']`, `const { b } = a`) on a value whose
// type has the shape of a configuration object (its properties are a subset of a schema object's)
// counts as a read of that property of that object. The program of a process is its app's
// main.ts and everything it imports, libraries included (from their sources), so a key read
// only by the controller does not count for the agent. The configuration library itself (which
// walks every key generically to load, check and print them) is left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';

/** A node of the configuration schema (JSON Schema: objects have `properties`, lists `items`). */
type TSchema = object;

/** A property name read on a value whose type has these property names. */
interface Read { readonly props: readonly string[]; readonly prop: string }

/** The property names of each object type found read, with the property read. */
function readsOf(program: ts.Program, skip: (file: string) => boolean): Read[] {
  const checker = program.getTypeChecker();
  const out: Read[] = [];
  const seen = new Set<string>();
  const push = (props: readonly string[], prop: string): void => {
    const key = `${prop}|${props.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ props, prop });
  };
  const record = (type: ts.Type, prop: string): void => {
    const parts = type.isUnion() ? type.types : [type];
    for (const part of parts) {
      const t = checker.getApparentType(checker.getNonNullableType(part));
      const names = checker.getPropertiesOfType(t).map((p) => p.name);
      if (!names.includes(prop)) continue;
      push([...names].sort(), prop);
      // The object that declares the property (a Pick<> of a configuration type keeps the declarations of the whole).
      for (const decl of checker.getPropertyOfType(t, prop)?.declarations ?? []) {
        const parent = decl.parent;
        if (ts.isTypeLiteralNode(parent) || ts.isInterfaceDeclaration(parent) || ts.isObjectLiteralExpression(parent)) {
          const members: readonly ts.Node[] = ts.isObjectLiteralExpression(parent) ? parent.properties : parent.members;
          const declared = members.map((m) => (m as { name?: ts.PropertyName }).name).filter((n): n is ts.Identifier | ts.StringLiteral => n !== undefined && (ts.isIdentifier(n) || ts.isStringLiteral(n))).map((n) => n.text);
          push([...new Set(declared)].sort(), prop);
        }
      }
    }
  };
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || skip(sf.fileName)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) record(checker.getTypeAtLocation(node.expression), node.name.text);
      else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) record(checker.getTypeAtLocation(node.expression), node.argumentExpression.text);
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const name = node.propertyName ?? node.name;
        if (ts.isIdentifier(name) || ts.isStringLiteral(name)) record(checker.getTypeAtLocation(node.parent), name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/**
 * The subpath exports of the libs (`@sluice/tap/in-process` → libs/tap/src/in-process/index.ts), from
 * each package.json's `exports`: what an app imports through them is its code too.
 */
function subpathImports(root: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const lib of readdirSync(join(root, 'libs'))) {
    let exportsMap: Record<string, { default?: string } | string> = {};
    try {
      exportsMap = (JSON.parse(readFileSync(join(root, 'libs', lib, 'package.json'), 'utf8')) as { exports?: typeof exportsMap }).exports ?? {};
    } catch { continue; }
    for (const [key, target] of Object.entries(exportsMap)) {
      if (key === '.' || key.includes('*')) continue;
      const js = typeof target === 'string' ? target : target.default;
      if (js === undefined) continue;
      out[`@sluice/${lib}/${key.replace(/^\.\//, '')}`] = [`libs/${lib}/${js.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')}`];
    }
  }
  return out;
}

/** The program of one app: its main.ts and, through `@sluice/*`, the sources of the libraries it imports. */
export function appProgram(root: string, app: 'agent' | 'controller'): ts.Program {
  return ts.createProgram([join(root, 'apps', app, 'src', 'main.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    baseUrl: root,
    paths: { ...subpathImports(root), '@sluice/*': ['libs/*/src/index.ts'] },
  });
}

/** Every object of a schema with its property names. */
function schemaObjects(schema: TSchema, out = new Map<TSchema, string[]>()): Map<TSchema, string[]> {
  const n = schema as unknown as { properties?: Record<string, TSchema>; items?: TSchema };
  if (n.properties !== undefined) {
    out.set(schema, Object.keys(n.properties));
    for (const child of Object.values(n.properties)) schemaObjects(child, out);
  }
  if (n.items !== undefined) schemaObjects(n.items, out);
  return out;
}

/** Whether the code read `prop` of the schema object whose properties are `objectProps`. */
function isRead(reads: readonly Read[], objectProps: readonly string[], prop: string): boolean {
  const all = new Set(objectProps);
  return reads.some((r) => r.prop === prop && r.props.every((p) => all.has(p)) && (r.props.length >= 2 || objectProps.length === 1));
}

/**
 * The leaf keys (dotted paths) of `schema` that the program reads: a leaf is read when its own
 * name is read on its object's shape; an object key whose every leaf is read is read too.
 */
export function keysRead(program: ts.Program, schema: TSchema, skipDir: string): Set<string> {
  const reads = readsOf(program, (file) => file.startsWith(skipDir + sep) || file.startsWith(`${skipDir}/`) || file.endsWith('.test.ts'));
  const objects = schemaObjects(schema);
  const out = new Set<string>();
  const walk = (s: TSchema, prefix: string): void => {
    const props = (s as unknown as { properties?: Record<string, TSchema> }).properties;
    if (props === undefined) return;
    const names = objects.get(s) ?? Object.keys(props);
    for (const [name, child] of Object.entries(props)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const childProps = (child as unknown as { properties?: unknown }).properties;
      if (childProps === undefined) {
        if (isRead(reads, names, name)) out.add(path);
      } else {
        walk(child, path);
      }
    }
  };
  walk(schema, '');
  return out;
}
