import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

/**
 * The kit writes one way (docs/decisions/033-one-way-to-write.md): `commit` and its helpers in
 * app/db/write.server.ts, on drizzle's public builder. This reads the imports and calls of every
 * source file under app/ and server/ and names each that leaves that way: an import of drizzle's
 * internals (the chunks a statement is built from, its batch types, any drizzle-orm subpath but
 * the documented ones), a transaction opened anywhere but through `commitAfterReading`, a batch
 * sent anywhere but through `commit`, a statement typed as SQL text starting with a write, or a
 * write awaited on its own (`await db.insert(…)…`, on whatever name, or a statement helper such as
 * `await scheduleJob(db, …)`) rather than sent by `commit`.
 * A write is awaited only on the open transaction of `commitAfterReading`: its work's parameter,
 * or a parameter typed `Transaction`.
 *
 * A batch result read by position is not checked here: `commit` answers a record keyed by the
 * names the statements were given, so there is no position to read.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const DIRS = ['app', 'server'].map((dir) => join(ROOT, dir))
/** Where the one way lives, and the database's own wrappers beneath it. */
const WRITE_MODULES = new Set(['app/db/write.server.ts', 'app/db/client.server.ts'])

/** drizzle-orm's entry points we use, each documented: the root, the SQLite builder, the libSQL driver, its migrator. */
const PUBLIC_ENTRIES = new Set([
  'drizzle-orm',
  'drizzle-orm/sqlite-core',
  'drizzle-orm/libsql',
  'drizzle-orm/libsql/migrator',
])
/** Names drizzle-orm exports for its own use: how a statement is put together and bound. */
const INTERNAL_NAMES = new Set([
  'Param',
  'StringChunk',
  'SQLChunk',
  'Name',
  'fillPlaceholders',
  'entityKind',
  'mapResultRow',
  'mapUpdateSet',
  'orderSelectedFields',
  'haveSameKeys',
  'FakePrimitiveParam',
  'noopEncoder',
  'noopDecoder',
  'noopMapper',
])

const WRITES = new Set(['insert', 'update', 'delete'])
/** The helpers that build a write statement for a commit from the builder they are handed first. */
const STATEMENT_HELPERS = new Set([
  'insertIf',
  'emailStatement',
  'scheduleJob',
  'appendEvent',
  'appendEventPerTask',
])

/** The `x.insert(…)` / `x.update(…)` / `x.delete(…)` a chain such as `x.update(t).set(…).where(…)` starts with. */
function writeStartingChain(expression: ts.Expression): ts.CallExpression | undefined {
  let found: ts.CallExpression | undefined
  for (let node: ts.Expression = expression; ; ) {
    if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) node = node.expression
    else if (ts.isPropertyAccessExpression(node)) node = node.expression
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      if (WRITES.has(node.expression.name.text) && node.arguments.length === 1) found = node
      node = node.expression.expression
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      return STATEMENT_HELPERS.has(node.expression.text) ? node : found
    } else return found
  }
}

/** The names that hold `commitAfterReading`'s open transaction where `node` stands. */
function transactionsInScope(node: ts.Node): Set<string> {
  const names = new Set<string>()
  for (let scope: ts.Node | undefined = node; scope; scope = scope.parent) {
    if (!ts.isFunctionLike(scope)) continue
    const call = scope.parent
    const isWork =
      ts.isCallExpression(call) &&
      ts.isIdentifier(call.expression) &&
      call.expression.text === 'commitAfterReading' &&
      call.arguments[1] === scope
    scope.parameters.forEach((parameter, index) => {
      const type = parameter.type
      const isTyped = type && ts.isTypeReferenceNode(type) && type.typeName.getText() === 'Transaction'
      if (ts.isIdentifier(parameter.name) && (isTyped || (isWork && index === 0)))
        names.add(parameter.name.text)
    })
  }
  return names
}

function isOnTransaction(write: ts.CallExpression) {
  const receiver = ts.isPropertyAccessExpression(write.expression)
    ? write.expression.expression
    : write.arguments[0]
  return receiver !== undefined && ts.isIdentifier(receiver) && transactionsInScope(write).has(receiver.text)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

function waysOutOfTheOneWay(file: string, text = readFileSync(file, 'utf8')) {
  const name = relative(ROOT, file)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const at = (node: ts.Node) => `${name}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text
      if (from.startsWith('drizzle-orm') && !PUBLIC_ENTRIES.has(from))
        found.push(`${at(node)} imports ${from}`)
      const bindings = node.importClause?.namedBindings
      if (from.startsWith('drizzle-orm') && bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text
          if (INTERNAL_NAMES.has(imported)) found.push(`${at(element)} imports ${imported} from ${from}`)
        }
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      !WRITE_MODULES.has(name)
    ) {
      const method = node.expression.name.text
      if (method === 'transaction' || method === 'batch') found.push(`${at(node)} calls .${method}(…)`)
    }
    if (ts.isAwaitExpression(node) && !WRITE_MODULES.has(name)) {
      const write = writeStartingChain(node.expression)
      if (write && !isOnTransaction(write)) found.push(`${at(node)} awaits a write outside commit`)
    }
    if (
      (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isStringLiteral(node)) &&
      /^\s*(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|REPLACE\s+INTO)\s/i.test(node.text)
    ) {
      found.push(`${at(node)} writes SQL text`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('every write goes through commit, on drizzle’s public builder', () => {
  const files = DIRS.flatMap(sourceFiles)
  expect(files.length).toBeGreaterThan(50)
  expect(files.flatMap((file) => waysOutOfTheOneWay(file))).toEqual([])
}, 30_000)

test('the check finds each way out, and not the one way', () => {
  const probe = `import { Param, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import { eq } from 'drizzle-orm/sql/expressions'
import { commit } from '~/db/write.server'
export async function write(db) {
  await db.transaction(async (tx) => {})
  await db.batch([])
  await db.run(sql\`INSERT INTO tasks (id) VALUES (\${1})\`)
  await commit(db, { task: db.update(tasks).set({ text: 'x' }) })
  await this.db.delete(tasks).where(eq(tasks.id, 'x'))
  const [row] = await (store.insert(tasks).values({ id: 'x' })).returning()
  await commitAfterReading(db, async (tx) => {
    await tx.update(tasks).set({ text: 'x' })
    await db.update(tasks).set({ text: 'x' })
  })
}
async function inside(tx: Transaction) {
  await tx.insert(tasks).values({ id: 'x' })
  await scheduleJob(tx, job)
  await scheduleJob(db, job)
}
const reads = () => db.select().from(tasks).where(eq(tasks.id, 'x'))
const statement = () => db.update(tasks).set({ text: 'x' })`
  expect(waysOutOfTheOneWay(join(ROOT, 'app/services/probe.server.ts'), probe)).toEqual([
    'app/services/probe.server.ts:1 imports Param from drizzle-orm',
    'app/services/probe.server.ts:2 imports drizzle-orm/batch',
    'app/services/probe.server.ts:3 imports drizzle-orm/sql/expressions',
    'app/services/probe.server.ts:6 calls .transaction(…)',
    'app/services/probe.server.ts:7 calls .batch(…)',
    'app/services/probe.server.ts:8 writes SQL text',
    'app/services/probe.server.ts:10 awaits a write outside commit',
    'app/services/probe.server.ts:11 awaits a write outside commit',
    'app/services/probe.server.ts:14 awaits a write outside commit',
    'app/services/probe.server.ts:20 awaits a write outside commit',
  ])
})
