import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import type { SearchResults } from '~/services/search.server'
import { EMPTY_QUERY_MESSAGE, LONG_QUERY_MESSAGE } from '~/services/search-query'
import { setActiveWorkspace } from '~/services/sessions.server'
import { signedInBrowser, type TestBrowser } from '../../../tests/helpers/auth'
import { createComment, createTask, createTeamWorkspace, createUser } from '../../../tests/helpers/factories'
import { links, visibleText } from '../../../tests/helpers/html'
import { callLoader } from '../../../tests/helpers/route'
import Search, { loader } from './index'

/**
 * /search: visitors are sent to sign in; a person gets the tasks and comments they may see in the
 * shape the page and the command palette read, and a sentence instead of results for an empty or
 * over-long query; the page marks matches with <mark> and links each result to its task.
 */

const db = database()
let ada: TestBrowser
let eve: TestBrowser
let taskId: string
let commentId: string

beforeAll(async () => {
  const owner = await createUser(db, { name: 'Ada Owner' })
  const stranger = await createUser(db, { name: 'Eve Stranger' })
  ada = await signedInBrowser(db, owner.id)
  eve = await signedInBrowser(db, stranger.id)
  const task = await createTask(db, { userId: owner.id, text: 'Tune the <script>harpsichord</script>' })
  taskId = task.id
  commentId = (await createComment(db, { taskId, userId: owner.id, content: 'harpsichord strings <b>x</b>' }))
    .id
})

const searchAs = (browser: TestBrowser | null, q: string | null) =>
  callLoader(loader, {
    url: q === null ? '/search' : `/search?${new URLSearchParams({ q })}`,
    headers: browser ? { Cookie: browser.cookie } : {},
  })

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    expect(await searchAs(null, 'harpsichord')).toMatchObject({
      status: 302,
      location: '/login?redirect=%2Fsearch%3Fq%3Dharpsichord',
    })
  })

  test('answers the shape the page and the palette read', async () => {
    const page = await searchAs(ada, 'harps')
    expect(page.status).toBe(200)
    expect(page.data).toEqual({
      query: 'harps',
      message: null,
      tasks: [
        {
          id: taskId,
          text: 'Tune the <script>harpsichord</script>',
          title: [
            { text: 'Tune the <script>', mark: false },
            { text: 'harpsichord', mark: true },
            { text: '</script>', mark: false },
          ],
          details: null,
          ownerName: 'Ada Owner',
        },
      ],
      comments: [
        {
          id: commentId,
          taskId,
          taskText: 'Tune the <script>harpsichord</script>',
          snippet: [
            { text: 'harpsichord', mark: true },
            { text: ' strings <b>x</b>', mark: false },
          ],
          authorName: 'Ada Owner',
        },
      ],
    } satisfies SearchResults)
  })

  test('finds nothing of a task the person may not see', async () => {
    expect((await searchAs(eve, 'harpsichord')).data).toEqual({
      query: 'harpsichord',
      message: null,
      tasks: [],
      comments: [],
    })
  })

  test.each([
    [null, '', EMPTY_QUERY_MESSAGE],
    ['   ', '   ', EMPTY_QUERY_MESSAGE],
    ['NEAR('.repeat(100), 'NEAR('.repeat(100), LONG_QUERY_MESSAGE],
  ])('%#: an empty or over-long query is a 200 with a sentence', async (q, query, message) => {
    const page = await searchAs(ada, q)
    expect(page.status).toBe(200)
    expect(page.data).toEqual({ query, message, tasks: [], comments: [] })
  })
})

describe('page', () => {
  function render(loaderData: SearchResults) {
    const Page = createRoutesStub([
      { id: 'routes/search/index', path: '/search', Component: Search as never },
    ])
    return renderToString(
      createElement(Page, {
        initialEntries: [`/search?q=${encodeURIComponent(loaderData.query)}`],
        hydrationData: { loaderData: { 'routes/search/index': loaderData } },
      }),
    )
  }

  test('marks matches, escapes what was stored, and links to the task and the comment', async () => {
    const html = render((await searchAs(ada, 'harps')).data as SearchResults)
    expect(html).toContain('<mark class="rounded-sm bg-yellow-200 px-0.5 text-black">harpsichord</mark>')
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<b>')
    expect(links(html).map((link) => link.href)).toEqual(
      expect.arrayContaining([
        `/search?q=harps&amp;task=${taskId}`,
        `/search?q=harps&amp;task=${taskId}#comment-${commentId}`,
      ]),
    )
    expect(html).toContain('name="q"')
    expect(html).toContain('value="harps"')
  })

  test('says so when nothing matches, and shows the sentence for an empty query', () => {
    expect(visibleText(render({ query: 'zzz', message: null, tasks: [], comments: [] }))).toContain(
      'Nothing you can see matches “zzz”.',
    )
    expect(
      visibleText(render({ query: '', message: EMPTY_QUERY_MESSAGE, tasks: [], comments: [] })),
    ).toContain(EMPTY_QUERY_MESSAGE)
  })
})

describe('only in the workspace worked in (?scope=workspace)', () => {
  test('narrows to the active workspace’s tasks; without it, everything the person may see', async () => {
    const bea = await createUser(db, { name: 'Bea' })
    const cal = await createUser(db, { name: 'Cal' })
    const acme = await createTeamWorkspace(db, {
      ownerId: cal.id,
      members: [{ userId: bea.id, role: 'member' }],
    })
    await createTask(db, { userId: cal.id, workspaceId: acme.id, text: 'Glockenspiel for the team' })
    await createTask(db, { userId: bea.id, text: 'Glockenspiel at home' })
    await createTask(db, { userId: cal.id, text: 'Glockenspiel in the open', isPublic: true })
    const browser = await signedInBrowser(db, bea.id)
    await setActiveWorkspace(db, { id: browser.session.id, userId: bea.id }, acme.id)
    const found = async (url: string) => {
      const { data } = await callLoader(loader, { url, headers: { Cookie: browser.cookie } })
      return (data as SearchResults).tasks.map((task) => task.text).sort()
    }

    expect(await found('/search?q=glockenspiel')).toEqual([
      'Glockenspiel at home',
      'Glockenspiel for the team',
      'Glockenspiel in the open',
    ])
    expect(await found('/search?q=glockenspiel&scope=workspace')).toEqual(['Glockenspiel for the team'])
    await setActiveWorkspace(db, { id: browser.session.id, userId: bea.id }, bea.id)
    expect(await found('/search?q=glockenspiel&scope=workspace')).toEqual(['Glockenspiel at home'])
  })
})
