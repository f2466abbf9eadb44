import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, useLoaderData } from 'react-router'
import { describe, expect, test } from 'vitest'
import { workspaceItems } from './keyboard/palette-items'
import { WorkspaceSwitcher } from './workspace-switcher'

/**
 * The header's switcher as the server renders it, which is what a browser without JavaScript
 * keeps: a plain form posting `workspaceId` to /workspaces/switch with the page to come back to,
 * a labelled <select> and a "Switch workspace" button; and the command palette's entries for it.
 */

const WORKSPACES = [
  { id: 'ada', name: 'Personal', isPersonal: true },
  { id: 'acme', name: 'Acme', isPersonal: false },
]

/** The switcher on a page, given what the root loader gives it. */
function Switcher() {
  return createElement(WorkspaceSwitcher, useLoaderData<Parameters<typeof WorkspaceSwitcher>[0]>())
}

function render(workspaces = WORKSPACES, activeWorkspaceId = 'acme') {
  const Page = createRoutesStub([{ id: 'page', path: '/task', Component: Switcher }])
  return renderToString(
    createElement(Page, {
      initialEntries: ['/task?status=Completed'],
      hydrationData: { loaderData: { page: { workspaces, activeWorkspaceId } } },
    }),
  )
}

describe('the workspace switcher without JavaScript', () => {
  test('a form of a labelled select, the active workspace chosen, and a submit button', () => {
    const html = render()
    expect(html).toMatch(
      /<form[^>]*method="post"[^>]*action="\/workspaces\/switch"|<form[^>]*action="\/workspaces\/switch"[^>]*method="post"/,
    )
    expect(html).toContain('name="redirectTo" value="/task?status=Completed"')
    expect(html).toMatch(/<label for="workspace-switch-select"[^>]*>Work in<\/label>/)
    expect(html).toMatch(
      /<select[^>]*id="workspace-switch-select"[^>]*name="workspaceId"|<select[^>]*name="workspaceId"[^>]*id="workspace-switch-select"/,
    )
    expect(html).toMatch(/<option value="acme" selected="">Acme<\/option>/)
    expect(html).toMatch(/<button type="submit"[^>]*>Switch workspace<\/button>/)
    expect(html).toContain('aria-label="Acme: switch workspace"')
    expect(html).toMatch(/<a[^>]*href="\/workspaces"[^>]*>All workspaces<\/a>/)
  })

  test('with the personal workspace alone there is nothing to choose, only the way to all workspaces', () => {
    const html = render([WORKSPACES[0] as (typeof WORKSPACES)[number]], 'ada')
    expect(html).not.toContain('<select')
    expect(html).toContain('All workspaces')
  })
})

describe('the command palette’s workspaces', () => {
  test('one entry per workspace but the active one, matched by the words typed', () => {
    expect(workspaceItems(WORKSPACES, 'acme', '')).toEqual([
      {
        id: 'workspace-ada',
        label: 'Switch to Personal',
        kind: 'Workspace',
        run: { kind: 'switch-workspace', workspaceId: 'ada' },
      },
    ])
    expect(workspaceItems(WORKSPACES, 'ada', 'acm').map((item) => item.label)).toEqual(['Switch to Acme'])
    expect(workspaceItems(WORKSPACES, 'ada', 'workspace').map((item) => item.label)).toEqual([
      'Switch to Acme',
    ])
    expect(workspaceItems(WORKSPACES, 'ada', 'billing')).toEqual([])
  })
})
