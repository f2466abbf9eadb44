import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Replaces the part of README.md between `<!-- bench:<name>:start -->` and
 * `<!-- bench:<name>:end -->` with `markdown`, so the figures the README quotes always come from
 * a bench run (`--write-readme`), never from a hand-copied table. The markers must exist: where a
 * section goes in the README is an editor's choice, not the bench's.
 */
export function writeReadmeSection(name: string, markdown: string, file = resolve('README.md')) {
  const start = `<!-- bench:${name}:start -->`
  const end = `<!-- bench:${name}:end -->`
  const readme = readFileSync(file, 'utf8')
  const from = readme.indexOf(start)
  const to = readme.indexOf(end)
  if (from === -1 || to < from) throw new Error(`${file} has no ${start} … ${end} markers`)
  const updated = `${readme.slice(0, from + start.length)}\n${markdown.trim()}\n${readme.slice(to)}`
  writeFileSync(file, updated)
}

/**
 * Whether this run was asked to write the README: `npm run bench -- --write-readme` (tests/bench/all.ts
 * hands it to every part), or `npm run bench --write-readme`, which npm passes as
 * npm_config_write_readme.
 */
export function isWritingReadme() {
  return process.argv.includes('--write-readme') || process.env.npm_config_write_readme === 'true'
}
