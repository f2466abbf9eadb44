import { z } from '~/utils/zod'

/**
 * What each kind of content file must say in its frontmatter. Strict objects: a misspelt field
 * (`tittle:`) is an error naming that field, not a silently missing title.
 */

const text = z.string().trim().min(1, 'must not be empty')
const order = z.number().int('must be a whole number').default(999)
// YAML turns `2025-01-31` into a Date and `"2025-01-31"` into a string: both mean the same day.
const date = z.union([z.date(), z.string()]).pipe(z.coerce.date({ error: 'must be a date like 2025-01-31' }))

export const DocFrontmatter = z.strictObject({
  title: text,
  description: text,
  order,
})

export const PostFrontmatter = z.strictObject({
  title: text,
  description: text,
  author: text.default('Anonymous'),
  /** publishedAt; the file's modification time when missing. */
  date: date.optional(),
  tags: z.array(text).default([]),
  /** A path on this site or an absolute URL; the social card and the list thumbnail. */
  image: z.string().trim().default(''),
  /** Minutes (`readingTime: 7`) or the text to show (`readingTime: 7 min read`); computed when missing. */
  readingTime: z.union([z.number().int().positive(), text]).optional(),
  order,
})

export const ChangelogFrontmatter = z.strictObject({
  date,
  title: text,
  version: text.optional(),
})

export const PageFrontmatter = z.strictObject({
  title: text,
  description: text,
  /** When the text last changed in substance (shown as 'Last updated'). */
  updated: date.optional(),
})
