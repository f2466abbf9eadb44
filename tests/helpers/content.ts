import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * A temporary content folder for one test: write exactly the MDX files a case needs, point the
 * content service (a `dir` argument, or CONTENT_DIR for loaders) at it, and remove it afterwards.
 */
export type ContentFolder = {
  dir: string
  /** Writes `content/<path>` with YAML frontmatter from `frontmatter` (raw lines) and a body. */
  write: (path: string, frontmatter: string, body?: string, options?: { modified?: Date }) => string
  remove: () => void
}

export function createContentFolder(): ContentFolder {
  const dir = mkdtempSync(join(tmpdir(), 'threadwork-content-'))
  return {
    dir,
    write(path, frontmatter, body = 'Some text.', options = {}) {
      const file = join(dir, path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, `---\n${frontmatter.trim()}\n---\n\n${body}\n`)
      if (options.modified) utimesSync(file, options.modified, options.modified)
      return file
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** `count` words of filler text, for reading-time cases. */
export function words(count: number) {
  return Array.from({ length: count }, (_, index) => `word${index}`).join(' ')
}
