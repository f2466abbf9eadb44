import { resolve } from 'node:path'
import MiniSearch from 'minisearch'
import { env } from '~/env.server'
import {
  type ContentProps,
  type MdxSource,
  type RenderedContent,
  renderContent,
} from '~/services/content/compile.server'
import {
  ChangelogFrontmatter,
  DocFrontmatter,
  PageFrontmatter,
  PostFrontmatter,
} from '~/services/content/content-schemas'
import {
  CONTENT_KINDS,
  type ContentKind,
  derived,
  pathFromName,
  type SourceFile,
  scan,
  validate,
} from '~/services/content/files.server'
import { countWords, plainText, readingTime, type SnippetPart, snippet } from '~/services/content/text'

/**
 * The site's written content: docs, blog posts, changelog entries and legal pages, as MDX files
 * under `content/` (or `CONTENT_DIR`). Every function takes the content folder as an optional
 * last argument, so tests point it at a temporary folder.
 *
 * Reading is cheap and compiling is cached: a scan reads only files whose size or modification
 * time changed, and in production the folder is scanned once per process — a deployed image's
 * content never changes under it (content/files.server.ts); each body is compiled once per
 * version (content/compile.server.ts). This module says what each kind of content is.
 */

export type { TocEntry } from '~/services/content/compile.server'
export { ContentError, type ContentKind } from '~/services/content/files.server'

export type DocSummary = { title: string; description: string; order: number; path: string }
export type Doc = DocSummary & { content: string; source: MdxSource }

export type PostSummary = {
  title: string
  description: string
  author: string
  /** publishedAt, ISO 8601. */
  date: string
  tags: string[]
  image: string
  readingTime: string
  order: number
  path: string
}
export type Post = PostSummary & { content: string; source: MdxSource }

export type ChangelogEntry = {
  date: string
  title: string
  version: string | null
  content: string
  source: MdxSource
  /** The file name without extension, used as the entry's anchor on /changelog. */
  slug: string
}

export type Page = { title: string; description: string; updated: string | null; source: MdxSource }

export type DocSearchHit = { path: string; title: string; description: string; snippet: SnippetPart[] }

export const NO_DOCS_MESSAGE = 'No documentation found'

export function contentDir(): string {
  return resolve(env().CONTENT_DIR)
}

// ── Docs ────────────────────────────────────────────────────────────────────

/** Every doc, sorted by order (default 999), then title. */
export async function listDocs(dir = contentDir()): Promise<Doc[]> {
  const { entries } = await docsCollection(dir)
  return entries
}

/** The doc at `path` ('testing', 'guides/deploy'; 'index' is the docs home), or null. */
export async function findDoc(path: string, dir = contentDir()): Promise<Doc | null> {
  const docs = await listDocs(dir)
  return docs.find((doc) => doc.path === normalizePath(path)) ?? null
}

/** What /docs shows: the doc whose path is 'index', else the first by order; null with no docs. */
export async function findDocsHome(dir = contentDir()): Promise<Doc | null> {
  const docs = await listDocs(dir)
  return docs.find((doc) => doc.path === 'index') ?? docs[0] ?? null
}

export function summarizeDoc({ title, description, order, path }: Doc): DocSummary {
  return { title, description, order, path }
}

/** Full-text search over doc titles and text; the index is built once per docs version. */
export async function searchDocs(query: string, dir = contentDir()): Promise<DocSearchHit[]> {
  const trimmed = query.trim().slice(0, 200)
  if (trimmed === '') return []
  const { index, texts } = await docsSearchIndex(dir)
  return index
    .search(trimmed, { prefix: true, fuzzy: 0.2, boost: { title: 3, description: 2 } })
    .map((hit) => ({
      path: String(hit.id),
      title: String(hit.title),
      description: String(hit.description),
      snippet: snippet(texts.get(String(hit.id)) ?? '', hit.terms),
    }))
}

// ── Blog ────────────────────────────────────────────────────────────────────

/** Every post, newest first; posts of the same date by order (default 999), then title. */
export async function listPosts(dir = contentDir()): Promise<Post[]> {
  const { entries } = await postsCollection(dir)
  return entries
}

export async function findPost(path: string, dir = contentDir()): Promise<Post | null> {
  const posts = await listPosts(dir)
  return posts.find((post) => post.path === normalizePath(path)) ?? null
}

export function summarizePost({ content: _content, source: _source, ...summary }: Post): PostSummary {
  return summary
}

// ── Changelog and pages ────────────────────────────────────────────────────

/** Changelog entries, newest first (same day: the later version first). */
export async function listChangelog(dir = contentDir()): Promise<ChangelogEntry[]> {
  const { entries } = await changelogCollection(dir)
  return entries
}

/** A legal or other standalone page by file name ('terms', 'privacy'), or null. */
export async function findPage(name: string, dir = contentDir()): Promise<Page | null> {
  const { entries } = await pagesCollection(dir)
  return entries.get(name) ?? null
}

// ── Rendering and versions ─────────────────────────────────────────────────

/** An entry's HTML and table of contents; compiled once per file version, then from memory. */
export function renderEntry(entry: { source: MdxSource }, props?: ContentProps): Promise<RenderedContent> {
  return renderContent(entry.source, props)
}

/**
 * A fingerprint of one kind of content ('docs', 'blog', …) or of all of it: it changes exactly
 * when a file of that kind is added, removed or edited. HTTP caches use it as the ETag's basis.
 */
export async function contentVersion(kinds: ContentKind[] = CONTENT_KINDS, dir = contentDir()) {
  const versions = await Promise.all(kinds.map(async (kind) => (await scan(dir, kind)).version))
  return versions.join('.')
}

/** Parses every file and compiles every body, so that no visitor waits for a compilation. */
export async function warmContent(dir = contentDir()): Promise<number> {
  const [docs, posts, changelog, pages] = await Promise.all([
    listDocs(dir),
    listPosts(dir),
    listChangelog(dir),
    pagesCollection(dir),
  ])
  const all = [...docs, ...posts, ...changelog, ...pages.entries.values()]
  // One at a time: compilation is CPU-bound, and requests keep being served in between.
  for (const entry of all) await renderEntry(entry, { supportEmail: env().SUPPORT_EMAIL })
  await docsSearchIndex(dir)
  return all.length
}

// ── Each kind, from its files ──────────────────────────────────────────────

function normalizePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '')
}

function source(file: SourceFile): MdxSource {
  return { body: file.body, hash: file.hash, label: file.label }
}

const docsCollection = derived('docs', ({ files }) => {
  const entries = files.map((file): Doc => {
    const frontmatter = validate(DocFrontmatter, file)
    return { ...frontmatter, path: pathFromName(file.name), content: file.body, source: source(file) }
  })
  entries.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title) || a.path.localeCompare(b.path))
  return { entries }
})

const postsCollection = derived('blog', ({ files }) => {
  const entries = files.map((file): Post => {
    const frontmatter = validate(PostFrontmatter, file)
    const minutes = frontmatter.readingTime
    return {
      title: frontmatter.title,
      description: frontmatter.description,
      author: frontmatter.author,
      date: (frontmatter.date ?? file.mtime).toISOString(),
      tags: frontmatter.tags,
      image: frontmatter.image,
      readingTime:
        typeof minutes === 'number'
          ? `${minutes} min read`
          : /^\d+$/.test(minutes ?? '')
            ? `${minutes} min read`
            : (minutes ?? readingTime(countWords(plainText(file.body)))),
      order: frontmatter.order,
      path: pathFromName(file.name),
      content: file.body,
      source: source(file),
    }
  })
  entries.sort((a, b) => b.date.localeCompare(a.date) || a.order - b.order || a.title.localeCompare(b.title))
  return { entries }
})

const changelogCollection = derived('changelog', ({ files }) => {
  const entries = files.map((file): ChangelogEntry => {
    const frontmatter = validate(ChangelogFrontmatter, file)
    return {
      date: frontmatter.date.toISOString(),
      title: frontmatter.title,
      version: frontmatter.version ?? null,
      content: file.body,
      source: source(file),
      slug: pathFromName(file.name).replaceAll('/', '-'),
    }
  })
  entries.sort((a, b) => b.date.localeCompare(a.date) || b.slug.localeCompare(a.slug))
  return { entries }
})

const pagesCollection = derived('pages', ({ files }) => {
  const entries = new Map<string, Page>()
  for (const file of files) {
    const frontmatter = validate(PageFrontmatter, file)
    entries.set(pathFromName(file.name), {
      title: frontmatter.title,
      description: frontmatter.description,
      updated: frontmatter.updated ? frontmatter.updated.toISOString() : null,
      source: source(file),
    })
  }
  return { entries }
})

const searchIndexes = new Map<string, { version: string; index: MiniSearch; texts: Map<string, string> }>()

async function docsSearchIndex(dir: string) {
  const { entries, version } = await docsCollection(dir)
  const known = searchIndexes.get(dir)
  if (known && known.version === version) return known
  const texts = new Map(entries.map((doc) => [doc.path, plainText(doc.content)]))
  const index = new MiniSearch({
    idField: 'path',
    fields: ['title', 'description', 'text'],
    storeFields: ['title', 'description'],
  })
  index.addAll(entries.map((doc) => ({ ...summarizeDoc(doc), text: texts.get(doc.path) })))
  const built = { version, index, texts }
  searchIndexes.set(dir, built)
  return built
}
