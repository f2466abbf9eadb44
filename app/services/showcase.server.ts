import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { env } from '~/env.server'
import { z } from '~/utils/zod'

/**
 * Projects built with the kit, listed on /showcase. The data is `showcase.json` in the content
 * folder (`CONTENT_DIR`, like the docs and blog), so adding a project is a pull request with no
 * code. Every entry is checked: a bad one fails with the entry and field named, and the test of
 * the shipped file catches it before a deploy.
 */

const SHOWCASE_FILE = 'showcase.json'

/** A path on this site ('/docs') or an absolute http(s) URL. */
const link = z
  .string()
  .trim()
  .refine((value) => /^\/(?![/\\])/.test(value) || /^https?:\/\/[^\s]+$/.test(value), {
    message: "must be a path on this site ('/docs') or an http(s) URL",
  })

const ShowcaseProjectSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  description: z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
  url: link,
  /** A screenshot or logo; without one the card shows the project's initials. */
  image: link.optional(),
  tags: z.array(z.string().trim().min(1, 'must not be empty')).max(5, 'at most 5 tags').default([]),
})

export type ShowcaseProject = z.infer<typeof ShowcaseProjectSchema>

export class InvalidShowcaseError extends Error {
  override name = 'InvalidShowcaseError'
}

/** Parses the file's text; an empty file means an empty showcase, not an error. */
export function parseShowcase(source: string, fileName = SHOWCASE_FILE): ShowcaseProject[] {
  if (source.trim() === '') return []
  let json: unknown
  try {
    json = JSON.parse(source)
  } catch (error) {
    throw new InvalidShowcaseError(`${fileName}: not valid JSON (${(error as Error).message})`)
  }
  const result = z.array(ShowcaseProjectSchema).safeParse(json)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const [index, ...field] = issue.path
      const where =
        typeof index === 'number'
          ? `entry ${index + 1}${field.length ? ` (${field.join('.')})` : ''}`
          : 'the file'
      return `  ${where}: ${issue.message}`
    })
    throw new InvalidShowcaseError(`${fileName} is invalid:\n${lines.join('\n')}`)
  }
  return result.data
}

let cached: { path: string; projects: ShowcaseProject[] } | undefined

/**
 * The showcase: in production read once per process, since a deployed image's content never
 * changes under it; in development the file's current contents. No file means no projects yet.
 */
export async function listShowcaseProjects(contentDir = env().CONTENT_DIR): Promise<ShowcaseProject[]> {
  const path = join(contentDir, SHOWCASE_FILE)
  if (env().isProduction && cached?.path === path) return cached.projects
  let source = ''
  try {
    source = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const projects = parseShowcase(source, path)
  cached = { path, projects }
  return projects
}
