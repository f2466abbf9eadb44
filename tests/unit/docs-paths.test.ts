import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

/**
 * The docs and the code's comments cite the code by path, and a path that moved or never existed
 * sends a reader nowhere. This names every cited repository path that does not exist:
 *
 * - in docs/, content/docs/ and the README: paths in backticks and in code blocks (`app/…`,
 *   `server/…`, `tests/…`, …; `~/x` is `app/x`; a folder of app/ named bare, `auth/oauth/…`, is
 *   app's), and relative links;
 * - in the comments of every source file under app/, server/, scripts/ and tests/: a word that
 *   starts with a top-level folder (`docs/decisions/035-….md`, `server/door.ts`) or `~/`, or that
 *   names a file (`rule.server.ts` in a folder), read from the repository's root or from the
 *   comment's own folder or any folder above it (a comment in app/services/ names its tasks/ files
 *   from there).
 *
 * URL paths (`/api/rpc`), globs and placeholders (`chat*.ts`, `<file>`, `…`) are not paths, and
 * neither is a quoted example in a comment (`'guides/deploy.mdx'`, a name inside content/).
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
      'The RPC endpoint (`app/routes/api/rpc.ts`) answers `/api/rpc/*`; see `auth/oauth/flow.server.ts`.',
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

/** Folders under the code folders that hold no sources of ours. */
const NOT_SOURCES = new Set(['node_modules', '+types'])
/** A word naming a file rather than a folder or a URL segment. */
const FILE_NAME = /\.(tsx?|m?js|mdx?|sql|json|css|ya?ml|toml)$/

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (GENERATED.some((folder) => `${path}/`.startsWith(folder))) return []
    if (statSync(join(ROOT, path)).isDirectory()) return NOT_SOURCES.has(name) ? [] : sourceFiles(path)
    return /\.m?[jt]sx?$/.test(name) ? [path] : []
  })
}

/** Every comment of a source file, with the line it starts on: what the parser sees, not a guess. */
function commentsIn(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
  const seen = new Set<number>()
  const found: { line: number; text: string }[] = []
  const visit = (node: ts.Node) => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ]
    for (const range of ranges) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1
      found.push({ line, text: text.slice(range.pos, range.end) })
    }
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  return found
}

/** The path a word of a comment cites, as written, or null when it cites none. */
function pathInComment(word: string): string | null {
  if (/^['"]/.test(word)) return null // a quoted example, not a citation
  const path = word
    .replace(/^[(`[]+/, '')
    .replace(/['’]s$/, '')
    .replace(/(:\d+)?[.,:;)`\]]*$/, '')
  if (!path.includes('/') || NOT_A_PATH.test(path) || /^\/|:|\/\//.test(path)) return null
  if (path.startsWith('~/')) return `app/${path.slice(2)}`
  if (GENERATED.some((folder) => path.startsWith(folder))) return null
  const [first = ''] = path.split('/')
  return REPO_FOLDERS.includes(first) || FILE_NAME.test(path) || /^\.\.?\//.test(path) ? path : null
}

/** Where a path cited in `file` may be read from: the file's own folder, each above it, the root. */
function foldersFrom(file: string, path: string): string[] {
  if (/^\.\.?\//.test(path)) return [dirname(file)]
  const folders: string[] = []
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) folders.push(folder)
  return [...folders, '.']
}

function commentCitationsIn(file: string, text: string): Citation[] {
  return commentsIn(file, text).flatMap(({ line, text: comment }) =>
    comment.split('\n').flatMap((lineText, offset) =>
      lineText.split(/\s+/).flatMap((word) => {
        const path = pathInComment(word)
        return path ? [{ doc: file, line: line + offset, path }] : []
      }),
    ),
  )
}

const existsFrom = (file: string, path: string) =>
  foldersFrom(file, path).some((folder) => exists(relative(ROOT, resolve(ROOT, folder, path))))

describe('paths cited in code comments', () => {
  const files = ['app', 'server', 'scripts', 'tests'].flatMap(sourceFiles)
  const citations = files.flatMap((file) => commentCitationsIn(file, readFileSync(join(ROOT, file), 'utf8')))

  test('are read from every code folder (a broken reader would pass everything)', () => {
    expect(citations.length).toBeGreaterThan(200)
    const folders = new Set(citations.map((citation) => citation.doc.split('/')[0]))
    expect(folders).toEqual(new Set(['app', 'server', 'scripts', 'tests']))
  })

  test('all exist', () => {
    const dead = citations
      .filter((citation) => !existsFrom(citation.doc, citation.path))
      .map(({ doc, line, path }) => `${doc}:${line} cites ${path}`)
    expect(dead).toEqual([])
  })

  test('are told from code, URLs, quoted examples and placeholders', () => {
    const code = [
      '// The RPC endpoint (app/routes/api/rpc.ts) answers /api/rpc/*, see docs/decisions/035-x.md.',
      "const path = 'app/not-a-comment.ts' // and tasks/rule.server.ts, from this file's folder",
      '/** Named like `~/utils/zod`; not paths: https://x.test/app/a, read/write, app/routes/api/chat*.ts, docs/decisions/044-… */',
      "/* A name inside a content folder: 'guides/deploy.mdx'. */",
    ].join('\n')
    expect(commentCitationsIn('app/services/example.ts', code).map((citation) => citation.path)).toEqual([
      'app/routes/api/rpc.ts',
      'docs/decisions/035-x.md',
      'tasks/rule.server.ts',
      'app/utils/zod',
    ])
    expect(existsFrom('app/services/example.ts', 'tasks/rule.server.ts')).toBe(true)
    expect(existsFrom('app/services/example.ts', 'rule.server.ts')).toBe(false)
  })
})
