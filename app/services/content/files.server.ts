import { createHash } from 'node:crypto'
import type { Dirent } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import matter from 'gray-matter'
import { env } from '~/env.server'
import { sourceHash } from '~/services/content/compile.server'
import type { z } from '~/utils/zod'

/**
 * The content files on disk: each kind's folder scanned into its files (frontmatter and body),
 * re-reading only files whose size or modification time changed, and in production once per
 * process; a version per folder that changes exactly when a file does; frontmatter checked with
 * errors that name the file and the field; and data derived from a folder rebuilt only when its
 * version changes. What each kind of content is lives in content.server.ts.
 */

/** A content file whose frontmatter is wrong: the message names the file and the field. */
export class ContentError extends Error {
  override name = 'ContentError'
}

export type ContentKind = 'docs' | 'blog' | 'changelog' | 'pages'
export const CONTENT_KINDS: ContentKind[] = ['docs', 'blog', 'changelog', 'pages']

export type SourceFile = {
  /** Path inside the kind's folder, with forward slashes: 'guides/deploy.mdx'. */
  name: string
  /** 'docs/guides/deploy.mdx': how errors name the file. */
  label: string
  mtime: Date
  size: number
  data: Record<string, unknown>
  body: string
  hash: string
}

export type Snapshot = { files: SourceFile[]; version: string }

type ScanState = {
  /** Parsed files by absolute path, reused while size and mtime stay the same. */
  files: Map<string, SourceFile>
  /** Production only: the one scan this process makes. */
  snapshot?: Promise<Snapshot>
}

const scans = new Map<string, ScanState>()

export function scan(dir: string, kind: ContentKind): Promise<Snapshot> {
  const folder = join(dir, kind)
  let state = scans.get(folder)
  if (!state) {
    state = { files: new Map() }
    scans.set(folder, state)
  }
  if (!env().isProduction) return readFolder(folder, kind, state)
  if (!state.snapshot) {
    const pending = readFolder(folder, kind, state)
    // A failed scan (a bad file) is not kept: the error shows again on the next request.
    pending.catch(() => {
      if (state.snapshot === pending) state.snapshot = undefined
    })
    state.snapshot = pending
  }
  return state.snapshot
}

async function readFolder(folder: string, kind: ContentKind, state: ScanState): Promise<Snapshot> {
  const paths = await listContentFiles(folder)
  const files = await Promise.all(
    paths.map(async (path) => {
      const info = await stat(path)
      const known = state.files.get(path)
      if (known && known.size === info.size && known.mtime.getTime() === info.mtime.getTime()) return known
      const name = relative(folder, path).split(sep).join('/')
      const raw = await readFile(path, 'utf8')
      const label = `${kind}/${name}`
      let parsed: matter.GrayMatterFile<string>
      try {
        // An empty options object keeps gray-matter from caching every file it ever parsed.
        parsed = matter(raw, {})
      } catch (error) {
        throw new ContentError(`${label}: the frontmatter is not valid YAML (${(error as Error).message})`)
      }
      const file: SourceFile = {
        name,
        label,
        mtime: info.mtime,
        size: info.size,
        data: parsed.data,
        body: parsed.content,
        hash: sourceHash(parsed.content),
      }
      state.files.set(path, file)
      return file
    }),
  )
  for (const path of state.files.keys()) if (!paths.includes(path)) state.files.delete(path)
  const version = createHash('sha256')
    .update(
      files.map((file) => `${file.name}\0${sourceHash(JSON.stringify(file.data))}\0${file.hash}`).join('\n'),
    )
    .digest('hex')
    .slice(0, 16)
  return { files, version }
}

async function listContentFiles(folder: string): Promise<string[]> {
  let entries: Dirent[]
  try {
    entries = await readdir(folder, { recursive: true, withFileTypes: true })
  } catch (error) {
    // No folder means no content of that kind, which each page reports in its own words.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries
    .filter((entry) => entry.isFile() && /\.mdx?$/.test(entry.name) && !entry.name.startsWith('_'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

export function validate<S extends z.ZodType>(schema: S, file: SourceFile): z.output<S> {
  const result = schema.safeParse(file.data)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(frontmatter)'
    const message =
      issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message
    return `"${field}": ${message}`
  })
  return failWith(`${file.label}: invalid frontmatter — ${problems.join('; ')}`)
}

function failWith(message: string): never {
  throw new ContentError(message)
}

/** 'guides/deploy.mdx' → 'guides/deploy'; 'guides/index.mdx' → 'guides'; 'index.mdx' → 'index'. */
export function pathFromName(name: string): string {
  const withoutExtension = name.replace(/\.mdx?$/, '')
  return withoutExtension.endsWith('/index') ? withoutExtension.slice(0, -'/index'.length) : withoutExtension
}

/** Derived data (sorted entries, search index) rebuilt only when its folder's version changes. */
export function derived<T>(kind: ContentKind, build: (snapshot: Snapshot) => T) {
  const cache = new Map<string, { version: string; value: T }>()
  return async (dir: string): Promise<T & { version: string }> => {
    const snapshot = await scan(dir, kind)
    const known = cache.get(dir)
    if (known && known.version === snapshot.version) return { ...known.value, version: snapshot.version }
    const value = build(snapshot)
    cache.set(dir, { version: snapshot.version, value })
    return { ...value, version: snapshot.version }
  }
}
