import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * The docs cite the code by path, and a path that moved or never existed sends a reader nowhere.
 * This reads docs/, content/docs/ and the README and names every cited repository path that does
 * not exist: paths in backticks and in code blocks (`app/…`, `server/…`, `tests/…`, …; `~/x` is
 * `app/x`; a folder of app/ named bare, `auth/oauth/…`, is app's), and relative links.
 * URL paths (`/api/rpc`), globs and placeholders (`chat*.ts`, `<file>`, `…`) are not paths.
 */

const ROOT = resolve(import.meta.dirname, '../..')

/** Top-level folders of the repository a cited path may start with. */
const REPO_FOLDERS = ['app', 'server', 'tests', 'docs', 'scripts', 'drizzle', 'content', 'public']
/** Folders of app/ that the docs name without `app/` in front. */
const APP_FOLDERS = readdirSync(join(ROOT, 'app')).filter((name) =>
  statSync(join(ROOT, 'app', name)).isDirectory(),
)

/** What a module specifier may leave off. */
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '/index.ts', '/index.tsx']

/** Markers of a pattern or a placeholder rather than a path. */
const NOT_A_PATH = /[*<>{}…$|]|\.\.\.|NNNN|\bx\b(?=\/|$)/

/** What separates the words of a code span or a code block. */
const SEPARATORS = /[\s'"`(),;[\]=]+/

/** Folders .gitignore anchors at the root: what the build and the bench write, not sources. */
const GENERATED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => /^\/.+\/$/.test(line))
  .map((line) => line.slice(1))

type Citation = { doc: string; line: number; path: string }

function docFiles(): string[] {
  const walk = (dir: string, ext: RegExp): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return walk(path, ext)
      return ext.test(name) ? [relative(ROOT, path)] : []
    })
  return ['README.md', ...walk(join(ROOT, 'docs'), /\.md$/), ...walk(join(ROOT, 'content/docs'), /\.mdx?$/)]
}

/** The repository path a token stands for, or null when it is not a repository path. */
function repoPathOf(token: string): string | null {
  const path = token.replace(/[.:]+$/, '')
  if (!path.includes('/') || NOT_A_PATH.test(path) || path.includes('//')) return null
  if (path.startsWith('~/')) return `app/${path.slice(2)}`
  const [first = ''] = path.split('/')
  const full = REPO_FOLDERS.includes(first) ? path : APP_FOLDERS.includes(first) ? `app/${path}` : null
  return full && !GENERATED.some((folder) => full.startsWith(folder)) ? full : null
}

/** Every repository path `markdown` cites, with its line; links are resolved from the doc's folder. */
function citationsIn(doc: string, markdown: string): Citation[] {
  const found: Citation[] = []
  let inFence = false
  markdown.split('\n').forEach((text, index) => {
    const line = index + 1
    if (/^\s*(```|~~~)/.test(text)) {
      inFence = !inFence
      return
    }
    const tokens = inFence ? [text] : [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '')
    for (const code of tokens) {
      // A URL path (`/api/rpc`) or a URL is not a repository path.
      for (const word of code.split(SEPARATORS)) {
        const path = word.startsWith('/') || word.includes(':/') ? null : repoPathOf(word)
        if (path) found.push({ doc, line, path })
      }
    }
    if (inFence) return
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^([a-z][\w+.-]*:|\/|#)/i.test(target)) continue
      const path = target.split('#')[0] ?? ''
      if (path) found.push({ doc, line, path: relative(ROOT, resolve(ROOT, dirname(doc), path)) })
    }
  })
  return found
}

const exists = (path: string) =>
  EXTENSIONS.some((ext) => existsSync(join(ROOT, path.replace(/\/$/, '') + ext)))

describe('paths cited in the docs', () => {
  const citations = docFiles().flatMap((doc) => citationsIn(doc, readFileSync(join(ROOT, doc), 'utf8')))

  test('are read from every doc (a broken reader would pass everything)', () => {
    expect(citations.length).toBeGreaterThan(200)
    const docs = new Set(citations.map((citation) => citation.doc))
    for (const doc of ['README.md', 'docs/architecture.md', 'content/docs/architecture.mdx']) {
      expect(docs).toContain(doc)
    }
  })

  test('all exist', () => {
    const dead = citations
      .filter((citation) => !exists(citation.path))
      .map(({ doc, line, path }) => `${doc}:${line} cites ${path}`)
    expect(dead).toEqual([])
  })

  test('are told from URL paths, globs, placeholders and aliases', () => {
    const markdown = [
      'The door (`app/routes/api/rpc.ts`) answers `/api/rpc/*`; see `auth/oauth/flow.server.ts`.',
      'Not paths: `app/routes/api/chat*.ts`, `tests/e2e/<file>.e2e.ts`, `routes/email/…`, `https://x.test/app/a`.',
      "```ts\nimport { loader } from '~/routes/tss'\n```",
      'A [decision](decisions/001-node-http-server.md#context), [a page](/docs/rpc), [a site](https://example.com).',
    ].join('\n')
    expect(citationsIn('docs/architecture.md', markdown).map((citation) => citation.path)).toEqual([
      'app/routes/api/rpc.ts',
      'app/auth/oauth/flow.server.ts',
      'app/routes/tss',
      'docs/decisions/001-node-http-server.md',
    ])
    expect(exists('app/routes/tss')).toBe(true)
    expect(exists('app/db/schema')).toBe(true)
    expect(exists('app/auth/session.server.ts')).toBe(false)
  })
})
