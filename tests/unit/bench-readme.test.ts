import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { writeReadmeSection } from '../bench/readme'

const readme = () => join(mkdtempSync(join(tmpdir(), 'bench-readme-')), 'README.md')

/** A README with the `run` section holding `run`, and another section beside it. */
const readmeWith = (run: string) =>
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
  const file = readme()
  writeFileSync(file, readmeWith('old table'))
  writeReadmeSection('run', '| a | b |\n|---|---|\n', file)
  writeReadmeSection('run', '| new | table |\n|---|---|\n', file)
  expect(readFileSync(file, 'utf8')).toBe(readmeWith('| new | table |\n|---|---|'))
})

test('refuses a README without the section’s markers, changing nothing', () => {
  const file = readme()
  writeFileSync(file, '# Title\n')
  expect(() => writeReadmeSection('run', 'table', file)).toThrow(/bench:run:start/)
  expect(readFileSync(file, 'utf8')).toBe('# Title\n')
})
