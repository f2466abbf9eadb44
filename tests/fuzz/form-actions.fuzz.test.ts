import { test } from '@fast-check/vitest'
import { beforeAll, describe, expect } from 'vitest'
import { CSRF_HEADER } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { createSession } from '~/services/sessions.server'
import {
  anonymousBrowser,
  callThroughMiddleware,
  clientContext,
  signedInBrowser,
  type TestBrowser,
} from '../helpers/auth'
import { createComment, createTask, createUser } from '../helpers/factories'
import { FORM_ACTIONS, type FormActionRoute, tableFingerprints } from '../helpers/form-actions'
import { TEST_ORIGIN } from '../helpers/route'
import { encode, type Placeholder, type Shape, shape } from './form-action-requests'

/**
 * Fuzzing every form action (the table in tests/helpers/form-actions.ts, checked against
 * app/routes.ts) through the root middleware, as an anonymous visitor and as a signed-in person,
 * each holding a valid CSRF token they may or may not send: bodies of every type and encoding
 * (URL-encoded with huge, odd and prototype-named fields, hand-made and real multipart with
 * files, JSON, text, raw bytes, nothing), wrong content types and methods, foreign origins.
 *
 * Whatever arrives, the answer is never a 5xx and never a thrown error, and a refusal (a 4xx, a
 * visitor sent to sign in, a request without a valid token) changes no row.
 *
 * Seeded and bounded so `npm test` stays fast. A longer run, or another seed:
 *   FUZZ_RUNS=500 FUZZ_SEED=123 npx vitest run tests/fuzz/form-actions.fuzz.test.ts
 * A failure prints its seed and the shrunk request; FUZZ_SEED replays it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_707)
const RUNS = Number(process.env.FUZZ_RUNS ?? 12)

// ── Who sends it ────────────────────────────────────────────────────────────

type Run = { browser: TestBrowser; values: Record<Placeholder, string> }

/** Someone else's rows, for ids that exist but belong to another person. */
let others: { userId: string; taskId: string; commentId: string; sessionId: string; email: string }

beforeAll(async () => {
  const db = database()
  const other = await createUser(db)
  const task = await createTask(db, { userId: other.id })
  const comment = await createComment(db, { taskId: task.id, userId: other.id })
  const session = await createSession(db, other.id)
  others = {
    userId: other.id,
    taskId: task.id,
    commentId: comment.id,
    sessionId: session.id,
    email: other.email,
  }
})

async function visitor(): Promise<Run> {
  return { browser: anonymousBrowser(), values: valuesFor(null) }
}

/** A new person per run: a run may sign out, revoke every session or delete the account. */
async function member(): Promise<Run> {
  const db = database()
  const user = await createUser(db)
  const task = await createTask(db, { userId: user.id })
  const comment = await createComment(db, { taskId: task.id, userId: user.id })
  const browser = await signedInBrowser(db, user.id)
  return {
    browser,
    values: valuesFor({
      userId: user.id,
      taskId: task.id,
      commentId: comment.id,
      sessionId: browser.session.id,
      email: user.email,
    }),
  }
}

let newEmails = 0

function valuesFor(own: typeof others | null): Record<Placeholder, string> {
  newEmails += 1
  return {
    $ownId: own?.userId ?? others.userId,
    $ownTask: own?.taskId ?? others.taskId,
    $othersTask: others.taskId,
    $ownComment: own?.commentId ?? others.commentId,
    $othersComment: others.commentId,
    $ownSession: own?.sessionId ?? others.sessionId,
    $othersSession: others.sessionId,
    $ownEmail: own?.email ?? 'nobody@example.test',
    $othersEmail: others.email,
    $newEmail: `fuzz-${newEmails}@example.test`,
  }
}

// ── Sending it ──────────────────────────────────────────────────────────────

async function send(route: FormActionRoute, shaped: Shape, run: Run) {
  const target = route.targets[shaped.target] ?? route.targets[0]
  if (!target) throw new Error(`${route.file} has no address to post to`)
  const { body, contentType } = encode(shaped, { csrf: run.browser.csrf, values: run.values })
  const headers = new Headers({ Cookie: run.browser.cookie })
  if (contentType !== null) headers.set('Content-Type', contentType)
  if (shaped.token === 'header') headers.set(CSRF_HEADER, run.browser.csrf)
  if (shaped.token === 'forged') headers.set(CSRF_HEADER, `${run.browser.csrf.split('.')[0]}.forged`)
  if (shaped.origin !== null) headers.set('Origin', shaped.origin)
  return callThroughMiddleware(route.action, {
    url: target.url,
    params: target.params,
    method: shaped.method,
    headers,
    body,
    context: clientContext(),
  })
}

/** Whether the request had no right to change anything, whatever it said. */
function isUnauthorized(route: FormActionRoute, shaped: Shape, persona: 'visitor' | 'member') {
  const hasValidToken = shaped.token === 'header' || shaped.token === 'field'
  const isSameSite = shaped.origin === null || shaped.origin === TEST_ORIGIN
  const isCsrfExempt = route.file === 'routes/resources/theme.ts'
  return (!isCsrfExempt && (!hasValidToken || !isSameSite)) || (route.needsUser && persona === 'visitor')
}

describe.each(FORM_ACTIONS.map((route) => [route.file, route] as const))('%s', (_file, route) => {
  describe.each(['visitor', 'member'] as const)('as a %s', (persona) => {
    test.prop([shape(route)], { seed: SEED, numRuns: RUNS })(
      'never a 5xx or a thrown error; a refusal changes no row',
      async (shaped) => {
        const run = persona === 'visitor' ? await visitor() : await member()
        const before = await tableFingerprints(database())
        // A thrown error (not an answer) fails here, with the request that caused it.
        const answer = await send(route, shaped, run)
        expect(answer.status, JSON.stringify(answer.body)?.slice(0, 300)).toBeLessThan(500)
        if (answer.status >= 400 || isUnauthorized(route, shaped, persona)) {
          expect(await tableFingerprints(database())).toEqual(before)
        }
      },
      120_000,
    )
  })
})
