import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

/**
 * A route's action answers a form one way: `handleForm` (app/http/form-action.server.ts) parses
 * it, runs the change and refuses what cannot be done. This reads every route module under
 * app/routes/ and names each place that does that work itself: a `parseWithZod` outside a form's
 * `onValidate` (the browser's own check of the same schema), a conform reply built by hand
 * (`submission.reply(…)`), or a domain error made into a form's reply by hand (`replyWithError`).
 * `refusalFor`, the translation itself, stays open to loaders and resource routes, which answer no
 * form. A page of several forms hands `handleForm` one change per intent, so an action that picks
 * its change itself (a `switch` on the intent, or the intent compared with a form's name) is named
 * too.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const ROUTES = join(ROOT, 'app/routes')

function routeModules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === '+types' ? [] : routeModules(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

function isInOnValidate(node: ts.Node) {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isPropertyAssignment(at) && ts.isIdentifier(at.name) && at.name.text === 'onValidate') return true
  }
  return false
}

function isInAction(node: ts.Node) {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isFunctionDeclaration(at) && at.name?.text === 'action') return true
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) && at.name.text === 'action') return true
  }
  return false
}

/** `intent` or `input.intent`: a form's name, once parsed. */
function isIntent(node: ts.Expression) {
  if (ts.isIdentifier(node)) return node.text === 'intent'
  return ts.isPropertyAccessExpression(node) && node.name.text === 'intent'
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
])

function answersByHand(file: string, text = readFileSync(file, 'utf8')) {
  const name = relative(ROOT, file)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const at = (node: ts.Node) => `${name}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression
      if (ts.isIdentifier(callee) && callee.text === 'parseWithZod' && !isInOnValidate(node))
        found.push(`${at(node)} parses with parseWithZod`)
      if (ts.isIdentifier(callee) && callee.text === 'replyWithError')
        found.push(`${at(node)} answers a refusal with replyWithError`)
      if (
        ts.isPropertyAccessExpression(callee) &&
        callee.name.text === 'reply' &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'submission'
      )
        found.push(`${at(node)} builds conform's reply with submission.reply(…)`)
    }
    if (ts.isSwitchStatement(node) && isIntent(node.expression) && isInAction(node))
      found.push(`${at(node)} picks its change with a switch on the intent`)
    if (
      ts.isBinaryExpression(node) &&
      COMPARISONS.has(node.operatorToken.kind) &&
      ((isIntent(node.left) && ts.isStringLiteralLike(node.right)) ||
        (isIntent(node.right) && ts.isStringLiteralLike(node.left))) &&
      isInAction(node)
    )
      found.push(`${at(node)} picks its change by comparing the intent`)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('no route module parses a form, picks its change or answers its refusal by hand', () => {
  const found = routeModules(ROUTES).flatMap((file) => answersByHand(file))
  expect(found).toEqual([])
})

test('the check finds each hand-written way', () => {
  const action = `
    export async function action({ request }) {
      const submission = parseWithZod(await request.formData(), { schema: Schema })
      if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
      try { await change(submission.value) } catch (error) { return replyWithError(submission, error) }
    }
    function Page() { useForm({ onValidate: ({ formData }) => parseWithZod(formData, { schema: Schema }) }) }
  `
  expect(answersByHand(join(ROUTES, 'example.tsx'), action)).toEqual([
    'app/routes/example.tsx:3 parses with parseWithZod',
    "app/routes/example.tsx:4 builds conform's reply with submission.reply(…)",
    'app/routes/example.tsx:5 answers a refusal with replyWithError',
  ])
})

test('the check finds an action that picks its change by the intent itself', () => {
  const action = `
    export async function action({ request }) {
      return handleForm(await readFormData(request), Intent, async (input) => {
        switch (input.intent) {
          case 'rename': return rename(input)
        }
        if (input.intent === 'delete') return remove(input)
      })
    }
    export const action = async ({ request }) =>
      adminAction(request, Intent, '/admin', async ({ intent }) => {
        switch (intent) {}
      })
    function Page({ actionData }) { return actionData?.intent === 'rename' ? <p /> : null }
  `
  expect(answersByHand(join(ROUTES, 'example.tsx'), action)).toEqual([
    'app/routes/example.tsx:4 picks its change with a switch on the intent',
    'app/routes/example.tsx:7 picks its change by comparing the intent',
    'app/routes/example.tsx:12 picks its change with a switch on the intent',
  ])
})
