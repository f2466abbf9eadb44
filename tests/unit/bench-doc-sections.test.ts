import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import { SECTION_FILES, writeBenchSection } from '../bench/doc-sections'

const docFile = () => join(mkdtempSync(join(tmpdir(), 'bench-doc-')), 'README.md')

/** A doc with the `run` section holding `run`, and another section beside it. */
const docWith = (run: string) =>
  [
    '# Title',
    '<!-- bench:run:start -->',
    run,
    '<!-- bench:run:end -->',
    '<!-- bench:scale:start -->',
    'scale table',
    '<!-- bench:scale:end -->',
    'after',
    '',
  ].join('\n')

test('replaces only what is between its own markers, as often as it runs', () => {
  const file = docFile()
  writeFileSync(file, docWith('old table'))
  writeBenchSection('run', '| a | b |\n|---|---|\n', file)
  writeBenchSection('run', '| new | table |\n|---|---|\n', file)
  expect(readFileSync(file, 'utf8')).toBe(docWith('| new | table |\n|---|---|'))
})

test('refuses a doc without the section’s markers, changing nothing', () => {
  const file = docFile()
  writeFileSync(file, '# Title\n')
  expect(() => writeBenchSection('run', 'table', file)).toThrow(/bench:run:start/)
  expect(readFileSync(file, 'utf8')).toBe('# Title\n')
})

test('every section has its markers in the doc it is written to', () => {
  for (const [name, file] of Object.entries(SECTION_FILES)) {
    const doc = readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8')
    expect(doc, `${file} holds bench:${name}`).toContain(`<!-- bench:${name}:start -->`)
    expect(doc, `${file} holds bench:${name}`).toContain(`<!-- bench:${name}:end -->`)
  }
})
