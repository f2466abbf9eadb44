import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, useFetcher } from 'react-router'
import { describe, expect, test } from 'vitest'
import { ActionForm, ListActionForm, useListFormFields } from './action-form'

function NoFallback() {
  return null
}

/** Renders `Page` at /task?task=t1&filter=all, whose loader issued the page's CSRF token. */
function render(Page: ComponentType) {
  const loaderData = { csrfToken: 'token-from-the-loader' }
  const Stub = createRoutesStub([
    { id: 'page', path: '/task', Component: Page, HydrateFallback: NoFallback, loader: () => loaderData },
  ])
  return renderToString(
    <Stub
      initialEntries={['/task?task=t1&filter=all']}
      hydrationData={{ loaderData: { page: loaderData } }}
    />,
  )
}

function SignOut() {
  return <ActionForm action="/logout">Sign Out</ActionForm>
}

function DeleteTask() {
  return (
    <ActionForm action="/task/actions" intent="delete" redirectTo>
      Delete
    </ActionForm>
  )
}

function SendComment() {
  return (
    <ActionForm action="/task/comments" redirectTo="/task?task=t1">
      Send
    </ActionForm>
  )
}

function WithFetcher() {
  const fetcher = useFetcher()
  return (
    <ActionForm fetcher={fetcher} action="/task/actions" intent="set-status" redirectTo>
      <button type="submit">Save</button>
    </ActionForm>
  )
}

function ListRows() {
  const fields = useListFormFields(true)
  return (
    <>
      {['t1', 't2'].map((id) => (
        <ListActionForm key={id} fields={fields} action="/task/actions" intent="set-status">
          <input type="hidden" name="taskId" value={id} />
        </ListActionForm>
      ))}
    </>
  )
}

describe('<ActionForm>', () => {
  test('posts with the page’s CSRF token, and nothing else it was not asked for', () => {
    const html = render(SignOut)
    expect(html).toMatch(/<form[^>]* action="\/logout" method="post">/)
    expect(html).toContain('<input type="hidden" name="csrf" value="token-from-the-loader"/>')
    expect(html).not.toContain('name="intent"')
    expect(html).not.toContain('name="redirectTo"')
  })

  test('carries the intent, and comes back to this page as it is (path and search)', () => {
    const html = render(DeleteTask)
    expect(html).toContain('<input type="hidden" name="intent" value="delete"/>')
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/task?task=t1&amp;filter=all"/>')
  })

  test('or to the address it is given', () => {
    const html = render(SendComment)
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/task?task=t1"/>')
  })

  test('a fetcher’s form carries the same fields', () => {
    const html = render(WithFetcher)
    expect(html).toMatch(/<form[^>]* action="\/task\/actions" method="post">/)
    expect(html).toContain('name="csrf" value="token-from-the-loader"')
    expect(html).toContain('name="intent" value="set-status"')
    expect(html).toContain('name="redirectTo" value="/task?task=t1&amp;filter=all"')
  })
})

describe('<ListActionForm>', () => {
  test('each row carries the same fields as <ActionForm>, read once for the list', () => {
    const html = render(ListRows)
    expect(html.match(/<form action="\/task\/actions" method="post">/g)).toHaveLength(2)
    expect(html.match(/name="csrf" value="token-from-the-loader"/g)).toHaveLength(2)
    expect(html.match(/name="intent" value="set-status"/g)).toHaveLength(2)
    expect(html.match(/name="redirectTo" value="\/task\?task=t1&amp;filter=all"/g)).toHaveLength(2)
  })
})

describe('forms that post', () => {
  /** Decision 009: forms carry the token automatically, which holds only if none is written by hand. */
  test('are all <ActionForm>: no other component sets method="post" or renders the token itself', () => {
    const appDir = join(import.meta.dirname, '..')
    const sources = readdirSync(appDir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.tsx') && !file.includes('.test.') && !file.endsWith('action-form.tsx'),
    )
    const byHand = sources.filter((file) => {
      const source = readFileSync(join(appDir, file), 'utf8')
      return /method=["'{]+post/i.test(source) || /<CsrfInput\s*\/>/.test(source)
    })
    expect(byHand).toEqual([])
  })
})
