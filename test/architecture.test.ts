import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The rules of the code's shape, checked over the repository's own files: the server's layers
 * depend one way, ports declare and adapters implement, the edges translate (they reach the store
 * only through application services, which composition alone builds), the chain adapters' parts
 * stay apart, packages form no cycle and the server depends on neither the SDK nor the bot, the
 * environment is read in one module, production code never reaches into test support, and no
 * source file or function grows past its bound. docs/architecture.md draws the same picture.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_SRC = 'packages/server/src/';

/** The server's layers, lowest first; each may import its own layer and the ones listed. */
const LAYERS = {
  domain: [],
  ports: ['domain'],
  application: ['domain', 'ports'],
  adapters: ['domain', 'ports'],
  edges: ['domain', 'ports', 'application'],
  composition: ['domain', 'ports', 'application', 'adapters', 'edges'],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

/** Libraries that do I/O or belong to a framework: the inner layers stay free of them. */
const OUTER_LIBRARIES = /^(fastify|@fastify\/|viem|ws$|pino|@dex\/contracts|node:(fs|http|net|worker_threads|child_process))/;
const NO_OUTER_LIBRARIES: readonly Layer[] = ['domain', 'ports', 'application'];

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Where `process.env` may be read: the server's config module, the cluster launcher and the command-line entries of the other packages. */
const ENVIRONMENT_READERS = new Set([
  'packages/server/src/composition/config.ts',
  'packages/server/src/composition/cluster-main.ts',
  'packages/sdk/src/cli/main.ts',
]);

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'packages', 'bench'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
}

/**
 * Implementations that stay in ports/ for now: the do-nothing Metrics is the default of
 * application components built without metrics, and the application may import only ports.
 */
const PORT_IMPLEMENTATIONS_ALLOWED = new Set(['packages/server/src/ports/metrics.ts: noMetrics']);

/**
 * The parts of adapters/chain/, by folder ('' for the shared root), each with the other parts it
 * may import besides its own folder and the root: the root opens the embedded devnet, the
 * settlement hands its receipts to the reactor's indexer, and the devnet's connection works its
 * AMM through the AMM administrator. Settlement, indexing and reads never import the devnet's
 * management.
 */
const CHAIN_ADAPTERS = `${SERVER_SRC}adapters/chain/`;
const CHAIN_PARTS: Record<string, readonly string[]> = {
  '': ['devnet'],
  settlement: ['indexing'],
  indexing: [],
  reads: [],
  devnet: ['amm-admin'],
  'amm-admin': [],
};

/** Names that say a class is an in-memory stand-in, which belongs in adapters/memory/. */
const IN_MEMORY_NAME = /^(Local|InMemory|Memory)[A-Z]/;

const isTestCode = (file: string) => /\.test\.ts$|\/test-support\/|^packages\/[^/]+\/test\//.test(file);

/** Source files of the packages, without tests, test support and benches. */
const sources = trackedFiles().filter((file) => file.startsWith('packages/') && !isTestCode(file));

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Module specifiers of the file's imports and re-exports, static and dynamic. */
function importsOf(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** A function's name as a reader finds it: its own, or the variable or property it is assigned to. */
function functionName(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const { parent } = node;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined) {
    return parent.name.getText();
  }
  return 'an anonymous function';
}

/** A value made of literals only: what a port may hold besides types and error classes. */
function isPlainData(node: ts.Expression): boolean {
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) {
    return isPlainData(node.expression);
  }
  if (ts.isPrefixUnaryExpression(node)) return node.operator === ts.SyntaxKind.MinusToken && isPlainData(node.operand);
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isPlainData);
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.every((property) => ts.isPropertyAssignment(property) && isPlainData(property.initializer));
  }
  return (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isBigIntLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    [ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(node.kind)
  );
}

/** What a port file holds that is neither a type, an error class nor plain data, by name. */
function portImplementations(source: ts.SourceFile): string[] {
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
    if (ts.isClassDeclaration(statement)) {
      const base = statement.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      if (base === undefined || !/Error$/.test(base.expression.getText())) found.push(statement.name?.text ?? 'a class');
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (declaration.initializer === undefined || !isPlainData(declaration.initializer)) {
          found.push(declaration.name.getText());
        }
      }
    } else {
      found.push(ts.isFunctionDeclaration(statement) ? (statement.name?.text ?? 'a function') : statement.getText().slice(0, 40));
    }
  }
  return found;
}

/** The file's classes, each with the interfaces of ports/ it declares it implements (as `port file#name`). */
function classesOf(file: string, source: ts.SourceFile): { readonly name: string; readonly ports: string[] }[] {
  const fromPorts = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = normalize(join(dirname(file), statement.moduleSpecifier.text));
    const bindings = statement.importClause?.namedBindings;
    if (!target.startsWith(`${SERVER_SRC}ports/`) || bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      fromPorts.set(element.name.text, `${relative(SERVER_SRC, target)}#${(element.propertyName ?? element.name).text}`);
    }
  }
  return source.statements.filter(ts.isClassDeclaration).map((declaration) => ({
    name: declaration.name?.text ?? 'a class',
    ports: (declaration.heritageClauses ?? [])
      .filter((clause) => clause.token === ts.SyntaxKind.ImplementsKeyword)
      .flatMap((clause) => clause.types.map((type) => fromPorts.get(type.expression.getText())))
      .filter((port) => port !== undefined),
  }));
}

/** The classes a file exports by declaration (`export class X`). */
function exportedClasses(source: ts.SourceFile): string[] {
  return source.statements
    .filter(ts.isClassDeclaration)
    .filter((declaration) => declaration.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword))
    .flatMap((declaration) => (declaration.name === undefined ? [] : [declaration.name.text]));
}

/**
 * The classes of `classes` a file constructs (`new X(...)`, `new module.X(...)`) that it imports,
 * under whatever local name, from a module under `folder`.
 */
function classesConstructedFrom(file: string, source: ts.SourceFile, folder: string, classes: ReadonlySet<string>): string[] {
  // Local name -> imported name; a namespace import maps its name to '*'.
  const imported = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!normalize(join(dirname(file), statement.moduleSpecifier.text)).startsWith(folder)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) imported.set(bindings.name.text, '*');
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) imported.set(element.name.text, (element.propertyName ?? element.name).text);
  }
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? imported.get(callee.text)
        : ts.isPropertyAccessExpression(callee) &&
            ts.isIdentifier(callee.expression) &&
            imported.get(callee.expression.text) === '*'
          ? callee.name.text
          : undefined;
      if (name !== undefined && classes.has(name)) found.push(`${file} constructs ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function layerOf(file: string): Layer | 'entry' {
  const top = file.slice(SERVER_SRC.length).split('/')[0] ?? '';
  if (top === 'index.ts') return 'entry';
  if (top in LAYERS) return top as Layer;
  throw new Error(`${file} is in no layer folder`);
}

/** Every cycle of a dependency graph once, each starting from its first name in sort order. */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles = new Set<string>();
  const visit = (name: string, path: readonly string[]): void => {
    if (path.includes(name)) {
      const cycle = path.slice(path.indexOf(name));
      const start = cycle.indexOf([...cycle].sort()[0] as string);
      cycles.add([...cycle.slice(start), ...cycle.slice(0, start), cycle[start]].join(' -> '));
      return;
    }
    for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
  };
  for (const name of edges.keys()) visit(name, []);
  return [...cycles].sort();
}

describe('the server', () => {
  const files = sources.filter((file) => file.startsWith(SERVER_SRC));

  it('keeps every source file in a layer folder', () => {
    expect(
      files.filter((file) =>
        (() => {
          try {
            layerOf(file);
            return false;
          } catch {
            return true;
          }
        })(),
      ),
    ).toEqual([]);
  });

  it('imports only along the layers: domain <- ports <- application <- adapters, edges <- composition', () => {
    const against: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const specifier of importsOf(parse(file))) {
        if (!specifier.startsWith('.')) {
          if (from !== 'entry' && NO_OUTER_LIBRARIES.includes(from) && OUTER_LIBRARIES.test(specifier)) {
            against.push(`${file} imports ${specifier}`);
          }
          continue;
        }
        const target = normalize(join(dirname(file), specifier));
        if (!target.startsWith(SERVER_SRC)) continue;
        const to = layerOf(target);
        const allowed = from === 'entry' || to === from || (to !== 'entry' && (LAYERS[from] as readonly string[]).includes(to));
        if (!allowed) against.push(`${file} (${from}) imports ${relative(SERVER_SRC, target)} (${to})`);
      }
    }
    expect(against).toEqual([]);
  });

  it("keeps the application's folders free of cycles: the desk never reaches back into the intake or the command log", () => {
    const folderOf = (file: string) => file.slice(SERVER_SRC.length).split('/').slice(0, 2).join('/');
    const edges = new Map<string, string[]>();
    for (const file of files.filter((file) => layerOf(file) === 'application')) {
      const from = folderOf(file);
      const targets = edges.get(from) ?? [];
      for (const specifier of importsOf(parse(file)).filter((specifier) => specifier.startsWith('.'))) {
        const target = normalize(join(dirname(file), specifier));
        if (layerOf(target) !== 'application' || folderOf(target) === from || targets.includes(folderOf(target))) continue;
        targets.push(folderOf(target));
      }
      edges.set(from, targets);
    }
    expect(cyclesOf(edges)).toEqual([]);
  });

  it("keeps adapters/chain/'s parts apart: each imports the shared root, its own folder and the parts listed", () => {
    const partOf = (file: string) => {
      const rest = file.slice(CHAIN_ADAPTERS.length);
      return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '';
    };
    const against: string[] = [];
    for (const file of files.filter((found) => found.startsWith(CHAIN_ADAPTERS))) {
      const from = partOf(file);
      const allowed = CHAIN_PARTS[from];
      if (allowed === undefined) against.push(`${file} is in a part of adapters/chain/ that CHAIN_PARTS does not list`);
      for (const specifier of importsOf(parse(file)).filter((found) => found.startsWith('.'))) {
        const target = normalize(join(dirname(file), specifier));
        if (!target.startsWith(CHAIN_ADAPTERS)) continue;
        const to = partOf(target);
        if (to !== from && to !== '' && !allowed?.includes(to)) against.push(`${file} imports ${relative(SERVER_SRC, target)}`);
      }
    }
    expect(against).toEqual([]);
  });

  it('keeps implementations out of ports: only types, error classes and plain data', () => {
    const implementations = files
      .filter((file) => layerOf(file) === 'ports')
      .flatMap((file) => portImplementations(parse(file)).map((name) => `${file}: ${name}`))
      .filter((implementation) => !PORT_IMPLEMENTATIONS_ALLOWED.has(implementation));
    expect(implementations).toEqual([]);
  });

  it('keeps in-memory implementations of ports in adapters/memory/, beside their twins, not in the application', () => {
    const classes = (layer: Layer) =>
      files
        .filter((file) => layerOf(file) === layer)
        .flatMap((file) => classesOf(file, parse(file)).map((found) => ({ file, ...found })));
    const implementedByAdapters = new Set(classes('adapters').flatMap(({ ports }) => ports));
    const misplaced: string[] = [];
    for (const { file, name, ports } of classes('application')) {
      if (IN_MEMORY_NAME.test(name)) misplaced.push(`${file}: ${name} is named as an in-memory stand-in`);
      for (const port of ports.filter((implemented) => implementedByAdapters.has(implemented))) {
        misplaced.push(`${file}: ${name} implements ${port}, as adapters do`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('keeps the edges off the store: they reach it through the application, never through ports/store/', () => {
    const against = files
      .filter((file) => layerOf(file) === 'edges')
      .flatMap((file) =>
        importsOf(parse(file))
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => normalize(join(dirname(file), specifier)))
          .filter((target) => target.startsWith(`${SERVER_SRC}ports/store/`))
          .map((target) => `${file} imports ${relative(SERVER_SRC, target)}`),
      );
    expect(against).toEqual([]);
  });

  it("constructs the application's classes only in composition (and in the application itself)", () => {
    const application = files.filter((file) => layerOf(file) === 'application');
    const classes = new Set(application.flatMap((file) => exportedClasses(parse(file))));
    const against = files
      .filter((file) => !['application', 'composition'].includes(layerOf(file)))
      .flatMap((file) => classesConstructedFrom(file, parse(file), `${SERVER_SRC}application/`, classes));
    expect(against).toEqual([]);
  });
});

describe('the packages', () => {
  const manifests = execFileSync('git', ['ls-files', 'packages/*/package.json'], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(
      (file) =>
        JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as {
          name: string;
          dependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
          optionalDependencies?: Record<string, string>;
        },
    );
  const edges = new Map(
    manifests.map((manifest) => [
      manifest.name,
      Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.optionalDependencies }).filter((name) =>
        name.startsWith('@dex/'),
      ),
    ]),
  );

  it('depend on each other without a cycle, tests included', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('keep the server free of the SDK and the bot, the protocol on core alone, and core free of every other package', () => {
    expect(edges.get('@dex/server')?.filter((name) => name === '@dex/sdk' || name === '@dex/market-maker')).toEqual([]);
    expect(edges.get('@dex/protocol')).toEqual(['@dex/core']);
    expect(edges.get('@dex/core')).toEqual([]);
  });

  it('keep the web page on the SDK and core alone: it runs in a browser', () => {
    expect(edges.get('@dex/web')?.sort()).toEqual(['@dex/core', '@dex/sdk']);
  });
});

describe('every package', () => {
  it('reads the environment only in its config module or command-line entry', () => {
    const readers: string[] = [];
    for (const file of sources) {
      if (ENVIRONMENT_READERS.has(file)) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'process' && node.name.text === 'env') {
          readers.push(file);
        }
        ts.forEachChild(node, visit);
      };
      visit(parse(file));
    }
    expect([...new Set(readers)]).toEqual([]);
  });

  it('never imports test support into production code', () => {
    const against = sources.flatMap((file) =>
      importsOf(parse(file))
        .filter((specifier) => /(^|\/)test-support(\/|$)/.test(specifier))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(against).toEqual([]);
  });

  it(`keeps source files under ${MAX_FILE_LINES} lines and functions under ${MAX_FUNCTION_LINES}`, () => {
    const long: string[] = [];
    for (const file of sources) {
      const source = parse(file);
      const lines = source.getLineAndCharacterOfPosition(source.getEnd()).line + 1;
      if (lines > MAX_FILE_LINES) long.push(`${file}: the file`);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
          const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
          const length = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
          if (length > MAX_FUNCTION_LINES) long.push(`${file}: ${functionName(node)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
