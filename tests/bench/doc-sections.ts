import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Where each table the bench writes lives: the README keeps the goals, docs/performance.md the
 * full run, the scale part, the sqld part and the mixed load.
 */
export const SECTION_FILES = {
  goals: 'README.md',
  run: 'docs/performance.md',
  scale: 'docs/performance.md',
  sqld: 'docs/performance.md',
  mixed: 'docs/performance.md',
} as const

export type BenchSection = keyof typeof SECTION_FILES

/**
 * Replaces the part of the section's file between `<!-- bench:<name>:start -->` and
 * `<!-- bench:<name>:end -->` with `markdown`, so the figures the docs quote always come from a
 * bench run (`--write-readme`), never from a hand-copied table. The markers must exist: where a
 * section goes in a doc is an editor's choice, not the bench's.
 */
export function writeBenchSection(name: BenchSection, markdown: string, file = resolve(SECTION_FILES[name])) {
  const start = `<!-- bench:${name}:start -->`
  const end = `<!-- bench:${name}:end -->`
  const doc = readFileSync(file, 'utf8')
  const from = doc.indexOf(start)
  const to = doc.indexOf(end)
  if (from === -1 || to < from) throw new Error(`${file} has no ${start} … ${end} markers`)
  const updated = `${doc.slice(0, from + start.length)}\n${markdown.trim()}\n${doc.slice(to)}`
  writeFileSync(file, updated)
}

/**
 * Whether this run was asked to write its tables into the docs: `npm run bench -- --write-readme`
 * (tests/bench/all.ts hands it to every part), or `npm run bench --write-readme`, which npm
 * passes as npm_config_write_readme. The flag keeps its name from when the README held them all.
 */
export function isWritingDocs() {
  return process.argv.includes('--write-readme') || process.env.npm_config_write_readme === 'true'
}
