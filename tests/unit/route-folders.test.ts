import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { describe, expect, test } from 'vitest'
import routes from '~/routes'

/**
 * app/routes/ at a glance: a file directly in a route folder is a route module listed in
 * app/routes.ts, or its test (`login.test.ts`, `index.notifications.test.ts`); whatever only a
 * route uses sits in a `+parts/` folder beside it and is imported from that folder alone; a
 * folder's main page (the one every other route of the folder sits under) is `index.tsx`. Code
 * several folders' routes share lives outside app/routes/ (app/http/, app/components/, …).
 */

const APP = resolve(import.meta.dirname, '../../app')
const ROUTES = join(APP, 'routes')
const PARTS = '+parts'

/** Every file under `dir`, relative to app/. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(APP, path)]
  })
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file)
const isPart = (file: string) => file.split('/').includes(PARTS)

type Listed = { file: string; url: string; isLayout: boolean }

/** The route table flattened: each module with its URL (an index route has its parent's). */
function listed(entries: RouteConfigEntry[], parent = ''): Listed[] {
  return entries.flatMap((entry) => {
    const url = [parent, entry.path ?? ''].filter(Boolean).join('/')
    return [
      { file: entry.file, url: `/${url}`, isLayout: (entry.children ?? []).length > 0 },
      ...listed(entry.children ?? [], url),
    ]
  })
}

/** Files directly in a route folder that are neither a listed route module nor its test. */
function strayFiles(files: string[], routeFiles: Set<string>) {
  const modules = new Set([...routeFiles].map((file) => file.replace(/\.tsx?$/, '')))
  return files.filter((file) => {
    if (isPart(file)) return false
    if (!isTest(file)) return !routeFiles.has(file)
    // A test is named after its module, with an optional topic: `index.notifications.test.ts`.
    const name = file.split('/').pop() ?? ''
    return !modules.has(join(dirname(file), name.split('.')[0] ?? ''))
  })
}

/** Route modules listed from inside a +parts folder: a part is never a route. */
const listedParts = (routeFiles: Set<string>) => [...routeFiles].filter(isPart)

/** The URL with optional segments dropped: `/chat/:chatId?` stands at `/chat`. */
const baseUrl = (url: string) => url.replace(/\/[^/]+\?$/, '') || '/'
const isUnder = (url: string, parent: string) =>
  url === parent || url.startsWith(parent === '/' ? '/' : `${parent}/`)

/**
 * Folders whose main page is not `index.tsx`: in a sub-folder of app/routes/ with several pages,
 * the page every other one sits under must be the index, and an index must be that page.
 * app/routes/ itself is the app's root, whose home page is `home.tsx` as in React Router's template.
 */
function misnamedMainPages(table: Listed[]) {
  const byFolder = new Map<string, Listed[]>()
  for (const entry of table) {
    const folder = dirname(entry.file)
    if (entry.isLayout || folder === 'routes') continue
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), entry])
  }
  const found: string[] = []
  for (const [folder, pages] of byFolder) {
    const main = pages.find((page) => pages.every((other) => isUnder(baseUrl(other.url), baseUrl(page.url))))
    const index = pages.find((page) => /\/index\.tsx?$/.test(page.file))
    if (index && index !== main) found.push(`${index.file} is not the page the rest of ${folder}/ sits under`)
    if (!index && main && pages.length > 1)
      found.push(`${main.file} is ${folder}/'s main page: name it index.tsx`)
  }
  return found
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'([^']+)'/g

/** Imports of a +parts module from anywhere but the folder the parts sit beside (tests aside). */
function partsImportedFromElsewhere(files: string[], read: (file: string) => string) {
  const found: string[] = []
  for (const file of files.filter((candidate) => !isTest(candidate))) {
    for (const [, specifier = ''] of read(file).matchAll(IMPORT)) {
      const target = specifier.startsWith('~/')
        ? specifier.slice(2)
        : specifier.startsWith('.')
          ? relative(APP, resolve(APP, dirname(file), specifier))
          : null
      if (!target || !isPart(target)) continue
      const owner = target.slice(0, target.indexOf(`/${PARTS}/`))
      const from = dirname(file).replace(new RegExp(`/\\${PARTS}(/.*)?$`), '')
      if (from !== owner) found.push(`app/${file} imports ${specifier}, a part of ${owner}/`)
    }
  }
  return found
}

const table = listed(await routes)
const routeFiles = new Set(table.map((entry) => entry.file))
const routeFolderFiles = filesUnder(ROUTES)

describe('route folders', () => {
  test('read the route table and the folders (a broken reader would pass everything)', () => {
    expect(routeFiles).toContain('routes/tasks/index.tsx')
    expect(table).toContainEqual({ file: 'routes/docs/index.tsx', url: '/docs', isLayout: false })
    expect(routeFolderFiles).toContain('routes/tasks/index.test.ts')
    expect(routeFolderFiles.filter(isPart).length).toBeGreaterThan(5)
  })

  test('every file directly in a route folder is a listed route module or its test', () => {
    expect(strayFiles(routeFolderFiles, routeFiles)).toEqual([])
    expect(listedParts(routeFiles)).toEqual([])
  })

  test("a folder's main page is its index", () => {
    expect(misnamedMainPages(table)).toEqual([])
  })

  test('a part is imported only by the routes it sits beside', () => {
    const app = filesUnder(APP).filter((file) => /\.tsx?$/.test(file))
    expect(partsImportedFromElsewhere(app, (file) => readFileSync(join(APP, file), 'utf8'))).toEqual([])
  })

  test('each rule names what breaks it', () => {
    const listedHere = new Set(['routes/tasks/index.tsx', 'routes/tasks/actions.tsx'])
    expect(
      strayFiles(
        [
          'routes/tasks/index.tsx',
          'routes/tasks/index.test.ts',
          'routes/tasks/index.rows.test.ts',
          'routes/tasks/task-group.tsx',
          'routes/tasks/task-group.test.ts',
          'routes/tasks/+parts/task-group.tsx',
        ],
        listedHere,
      ),
    ).toEqual(['routes/tasks/task-group.tsx', 'routes/tasks/task-group.test.ts'])
    expect(listedParts(new Set(['routes/+parts/page.tsx']))).toEqual(['routes/+parts/page.tsx'])

    const page = (file: string, url: string): Listed => ({ file, url, isLayout: false })
    expect(
      misnamedMainPages([
        page('routes/chat/page.tsx', '/chat/:chatId?'),
        page('routes/chat/new.tsx', '/chat/new'),
      ]),
    ).toEqual(["routes/chat/page.tsx is routes/chat/'s main page: name it index.tsx"])
    expect(
      misnamedMainPages([page('routes/a/index.tsx', '/a/x'), page('routes/a/y.tsx', '/a/y')]),
    ).toHaveLength(1)
    expect(misnamedMainPages([page('routes/dev/mailbox.tsx', '/dev/mailbox')])).toEqual([])

    const sources: Record<string, string> = {
      'routes/tasks/index.tsx': "import { TaskGroup } from './+parts/task-group'",
      'routes/tasks/+parts/row.tsx': "import { format } from './format'",
      'routes/dashboard/index.tsx': "import { TaskGroup } from '~/routes/tasks/+parts/task-group'",
      'components/list.tsx': "const lazy = import('../routes/tasks/+parts/task-group')",
    }
    expect(partsImportedFromElsewhere(Object.keys(sources), (file) => sources[file] ?? '')).toEqual([
      'app/routes/dashboard/index.tsx imports ~/routes/tasks/+parts/task-group, a part of routes/tasks/',
      'app/components/list.tsx imports ../routes/tasks/+parts/task-group, a part of routes/tasks/',
    ])
  })
})
