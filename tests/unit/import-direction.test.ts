import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

/**
 * Dependencies point one way: routes → http, auth → services → db, with e-mail, events and jobs as the
 * infrastructure services build on, and utils and domain at the bottom, importable by all. A
 * lower layer that reaches up (a service importing auth, the schema importing a service) is how
 * the layers silently fuse; this reads every import under app/ and names each one that does.
 * Tests are left out: they may reach any layer.
 */

const APP = resolve(import.meta.dirname, '../../app')

type Edge = { file: string; specifier: string; from: string; to: string; isTypeOnly: boolean }

/**
 * The one reader of configuration sits at the top of app/ to be found, but it is a utility like
 * any other: every layer may read configuration.
 */
const LAYER_OF_FILE: Record<string, string> = { 'env.server': 'utils' }

/** The layer of a path under app/: its top-level folder, or the file's own name at the top level. */
function layerOf(path: string) {
  const [first = '', ...rest] = relative(APP, path).split('/')
  if (rest.length > 0) return first
  const name = first.replace(/\.(tsx?|css)$/, '')
  return LAYER_OF_FILE[name] ?? name
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

function resolveSpecifier(file: string, specifier: string) {
  if (specifier.startsWith('~/')) return join(APP, specifier.slice(2))
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier)
  return null
}

/** Every import and re-export of an app module in `file`, and whether it brings in types only. */
function importsOf(file: string, source = readFileSync(file, 'utf8')) {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX)
  const found: { specifier: string; isTypeOnly: boolean }[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const isTypeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)))
      found.push({ specifier: node.moduleSpecifier.text, isTypeOnly })
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, isTypeOnly: node.isTypeOnly })
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, isTypeOnly: false })
    }
    ts.forEachChild(node, visit)
  }
  visit(tree)
  return found
}

function appEdges(): Edge[] {
  return sourceFiles(APP).flatMap((file) =>
    importsOf(file).flatMap(({ specifier, isTypeOnly }) => {
      const target = resolveSpecifier(file, specifier)
      if (!target) return []
      return [{ file: relative(APP, file), specifier, from: layerOf(file), to: layerOf(target), isTypeOnly }]
    }),
  )
}

const describeEdge = (edge: Edge) => `app/${edge.file} imports '${edge.specifier}'`

/** What each layer may import from the app, besides itself; a layer not listed is unrestricted here. */
const ALLOWED: Record<string, string[]> = {
  domain: [],
  utils: ['domain'],
  db: ['domain', 'utils'],
  events: ['db', 'domain', 'utils'],
  email: ['db', 'domain', 'utils'],
  jobs: ['db', 'domain', 'utils'],
}

/** What each layer must never import (types included): the layers above it. */
const FORBIDDEN: Record<string, string[]> = {
  services: ['auth', 'http', 'routes', 'rpc', 'components', 'root'],
  auth: ['http', 'routes', 'rpc', 'components', 'root'],
  http: ['routes', 'rpc', 'components', 'root'],
}

function violations(edges: Edge[]) {
  const found: string[] = []
  for (const edge of edges) {
    if (edge.from === edge.to) continue
    // The browser's RPC client names the router's procedures by their types: erased at build,
    // so it runs nothing of the server (the client-bundle check after the build proves it).
    if (edge.isTypeOnly && edge.to === 'rpc' && edge.file === 'utils/rpc-client.ts') continue
    const allowed = ALLOWED[edge.from]
    if (allowed && !allowed.includes(edge.to)) {
      found.push(`${describeEdge(edge)}: ${edge.from} may import only ${allowed.join(', ') || 'itself'}`)
    }
    if (FORBIDDEN[edge.from]?.includes(edge.to)) {
      found.push(`${describeEdge(edge)}: ${edge.from} sits below ${edge.to}`)
    }
    // Route modules are entry points: code elsewhere may name their types (action data), never
    // run them.
    if (edge.to === 'routes' && edge.from !== 'routes' && !edge.isTypeOnly) {
      found.push(`${describeEdge(edge)}: only routes import route modules (types excepted)`)
    }
  }
  return found
}

/** Cycles between layers through imports that run code (a type-only import runs nothing). */
function layerCycles(edges: Edge[]) {
  const graph = new Map<string, Set<string>>()
  for (const edge of edges) {
    if (edge.isTypeOnly || edge.from === edge.to) continue
    if (!graph.has(edge.from)) graph.set(edge.from, new Set())
    graph.get(edge.from)?.add(edge.to)
  }
  const cycles: string[] = []
  const done = new Set<string>()
  const walk = (node: string, path: string[]) => {
    const start = path.indexOf(node)
    if (start !== -1) {
      cycles.push([...path.slice(start), node].join(' → '))
      return
    }
    if (done.has(node)) return
    for (const next of graph.get(node) ?? []) walk(next, [...path, node])
    done.add(node)
  }
  for (const node of graph.keys()) walk(node, [])
  return cycles
}

describe('import direction', () => {
  const edges = appEdges()

  test('reads the imports of the app (a broken reader would pass everything)', () => {
    expect(edges.length).toBeGreaterThan(200)
    expect(edges).toContainEqual(expect.objectContaining({ from: 'services', to: 'db', isTypeOnly: false }))
    expect(importsOf('x.ts', "import type { A } from '~/a'\nimport { type B, c } from './b'")).toEqual([
      { specifier: '~/a', isTypeOnly: true },
      { specifier: './b', isTypeOnly: false },
    ])
  })

  test('no layer imports a layer above it', () => {
    expect(violations(edges)).toEqual([])
  })

  test('no cycles between layers', () => {
    expect(layerCycles(edges)).toEqual([])
  })

  test('a violation is reported with the file that commits it', () => {
    const edge = (from: string, to: string, isTypeOnly = false): Edge => ({
      file: `${from}/x.ts`,
      specifier: `~/${to}/y`,
      from,
      to,
      isTypeOnly,
    })
    expect(violations([edge('services', 'auth', true)])).toEqual([
      "app/services/x.ts imports '~/auth/y': services sits below auth",
    ])
    expect(violations([edge('db', 'services')])).toHaveLength(1)
    expect(violations([edge('components', 'routes', true)])).toEqual([])
    expect(violations([edge('components', 'routes')])).toHaveLength(1)
    expect(layerCycles([edge('utils', 'services'), edge('services', 'utils')])).toEqual([
      'utils → services → utils',
    ])
  })
})
