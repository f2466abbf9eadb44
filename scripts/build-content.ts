import { contentDir, warmContent } from '~/services/content.server'

/**
 * Part of `npm run build`: validates every content file (a bad frontmatter fails the build with
 * the file's name and the field) and compiles each into build/content-cache/, so the server
 * never compiles on a visitor's request (docs/decisions/018-content-html-on-the-server.md).
 */
const started = performance.now()
try {
  const count = await warmContent()
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Content: ${count} files from ${contentDir()} validated and compiled in ${seconds} s.`)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
}
