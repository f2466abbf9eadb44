import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import routes from '~/routes'
import { action as themeAction } from '~/routes/resources/theme'
import { NOT_A_FORM_MESSAGE, UNREADABLE_FORM_MESSAGE } from '~/utils/form-data.server'
import { anonymousBrowser, callThroughMiddleware, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { FORM_ACTIONS, type FormActionRoute, OTHER_ACTIONS, tableFingerprints } from '../helpers/form-actions'

/**
 * A body that is not a form, sent to a form action by a client holding a valid CSRF token (in
 * the header, as API clients send it): a 4xx that says what to send, never a 500, and no row
 * changed. The fuzz suite (tests/fuzz/form-actions.fuzz.test.ts) throws far more at the same
 * actions; these are the cases the outside test found, spelled out.
 */

const APP_DIR = fileURLToPath(new URL('../../app', import.meta.url))

type RouteEntry = { file: string; children?: RouteEntry[] }
const flatten = (entries: RouteEntry[]): RouteEntry[] =>
  entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])])

test('every route action in app/routes.ts is in the form-action table or tested elsewhere', async () => {
  const withAction: string[] = []
  for (const { file } of flatten(routes as RouteEntry[])) {
    const module = (await import(/* @vite-ignore */ `${APP_DIR}/${file}`)) as { action?: unknown }
    // A module serving two URLs (the two event streams) is listed once.
    if (typeof module.action === 'function' && !withAction.includes(file)) withAction.push(file)
  }
  const covered = [...FORM_ACTIONS.map((route) => route.file), ...Object.keys(OTHER_ACTIONS)]
  expect(withAction.sort()).toEqual(covered.sort())
})

const FORM_READERS = FORM_ACTIONS.filter((route) => route.reads === 'form')

const NOT_FORMS: [label: string, headers: Record<string, string>, body: string | undefined][] = [
  ['JSON', { 'Content-Type': 'application/json' }, '{"intent":"delete","taskId":"x"}'],
  ['plain text', { 'Content-Type': 'text/plain' }, 'intent=delete'],
  ['no body at all', {}, undefined],
]

async function browserFor(route: FormActionRoute) {
  if (!route.needsUser) return anonymousBrowser()
  const db = database()
  return signedInBrowser(db, (await createUser(db)).id)
}

describe.each(FORM_READERS.map((route) => [route.targets[0]?.url ?? route.file, route] as const))(
  '%s',
  (_url, route) => {
    const target = route.targets[0] ?? { url: '/', params: {} }

    test.each(NOT_FORMS)(
      'a body of %s: 415 with what to send, nothing changed',
      async (_label, headers, body) => {
        const browser = await browserFor(route)
        const before = await tableFingerprints(database())
        const answer = await callThroughMiddleware(route.action, {
          url: target.url,
          params: target.params,
          headers: browser.headers({ extra: headers }),
          body,
        })
        expect(answer.status).toBe(415)
        expect(answer.body).toBe(NOT_A_FORM_MESSAGE)
        expect(await tableFingerprints(database())).toEqual(before)
      },
    )

    test('a multipart body that cannot be parsed: 400, nothing changed', async () => {
      const browser = await browserFor(route)
      const before = await tableFingerprints(database())
      const answer = await callThroughMiddleware(route.action, {
        url: target.url,
        params: target.params,
        headers: browser.headers({ extra: { 'Content-Type': 'multipart/form-data; boundary=abc' } }),
        body: '--abc\r\nContent-Disposition: form-data; name="intent"\r\n\r\nde',
      })
      expect(answer.status).toBe(400)
      expect(answer.body).toBe(UNREADABLE_FORM_MESSAGE)
      expect(await tableFingerprints(database())).toEqual(before)
    })
  },
)

test('the theme switch, which needs no token, refuses JSON from anyone with 415', async () => {
  const answer = await callThroughMiddleware(themeAction, {
    url: '/resources/theme',
    headers: { Origin: 'https://evil.example' },
    json: { theme: 'dark', redirectTo: '/' },
  })
  expect(answer).toMatchObject({ status: 415, body: NOT_A_FORM_MESSAGE })
})

test('a form whose CSRF field cannot be read is refused as forged, before the action runs', async () => {
  const browser = anonymousBrowser()
  const route = FORM_ACTIONS.find((entry) => entry.file === 'routes/support.tsx') as FormActionRoute
  const answer = await callThroughMiddleware(route.action, {
    url: '/support',
    headers: { Cookie: browser.cookie, 'Content-Type': 'multipart/form-data; boundary=abc' },
    body: 'not multipart',
  })
  expect(answer).toMatchObject({ status: 403, handled: false })
})
