import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

/**
 * A write transaction holds SQLite's write lock until it commits, and worker processes sharing
 * the file wait for it with their threads blocked (docs/decisions/025-every-core-through-node-cluster.md;
 * over the network, a libSQL server waits too). So nothing slow happens inside one: no network
 * call, no e-mail, no password hashing. This reads every `.transaction(…)` and
 * `commitAfterReading(…)` (app/db/write.server.ts) under app/ and names
 * each call inside that is one of them. It sees the callback's own code, not what the functions
 * it calls do in turn: those take a `tx` and only run statements.
 */

const APP = resolve(import.meta.dirname, '../../app')

/** Calls that leave the process or burn a core for a while. */
const SLOW_CALLS = new Set(['fetch', 'hashPassword', 'verifyPassword', 'sendMail', 'github', 'scrypt'])
/** Objects whose every method is a network call. */
const REMOTE_OBJECTS = new Set(['stripe', 'transport', 'transporter'])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.server\.ts$/.test(name) ? [path] : []
  })
}

/** The leftmost name of a call's callee (`stripe` in `stripe.checkout.sessions.create`) and its own name. */
function calleeNames(expression: ts.Expression): string[] {
  if (ts.isIdentifier(expression)) return [expression.text]
  if (ts.isPropertyAccessExpression(expression)) {
    let root: ts.Expression = expression
    while (ts.isPropertyAccessExpression(root) || ts.isCallExpression(root)) root = root.expression
    return [expression.name.text, ...(ts.isIdentifier(root) ? [root.text] : [])]
  }
  return []
}

/** The callback a call runs inside a transaction: `db.transaction(work)` or `commitAfterReading(db, work)`. */
function transactionWork(call: ts.CallExpression) {
  const callee = call.expression
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'transaction') return call.arguments[0]
  if (ts.isIdentifier(callee) && callee.text === 'commitAfterReading') return call.arguments[1]
  return undefined
}

function slowCallsInTransactions(file: string, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visitInside = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const [name = '', root] = calleeNames(node.expression)
      if (SLOW_CALLS.has(name) || (root && REMOTE_OBJECTS.has(root))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart())
        found.push(`${relative(APP, file)}:${line + 1} ${node.expression.getText()}`)
      }
    }
    ts.forEachChild(node, visitInside)
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const work = transactionWork(node)
      if (work) visitInside(work)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('no write transaction calls the network, sends e-mail or hashes a password', () => {
  const files = sourceFiles(APP)
  expect(files.length).toBeGreaterThan(10)
  expect(files.flatMap((file) => slowCallsInTransactions(file))).toEqual([])
})

test('the check finds a slow call inside a transaction, and not one outside', () => {
  const probe = `export const run = async (db, stripe) => {
    await fetch('https://example.com/before')
    await db.transaction(async (tx) => {
      await stripe.checkout.sessions.create({})
      await fetch('https://example.com')
    })
    await commitAfterReading(db, async (tx) => {
      await hashPassword('secret')
    })
  }`
  expect(slowCallsInTransactions(join(APP, 'services/probe.server.ts'), probe)).toEqual([
    'services/probe.server.ts:4 stripe.checkout.sessions.create',
    'services/probe.server.ts:5 fetch',
    'services/probe.server.ts:8 hashPassword',
  ])
})
