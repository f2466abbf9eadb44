import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  FIRST_LOAD_PAGES,
  firstLoadVerdicts,
  measureFirstLoadJs,
  measureRoutesFirstLoadJs,
  OURS_BUDGET_BYTES,
} from '../bench/first-load-js'

/**
 * The first-load budget counts bytes, so its arithmetic is tested on a small build of files
 * whose sizes it knows: what is the framework's, what is ours, what loads later.
 */

/** Bytes that gzip poorly, so a file's gzipped size is close to its length. */
function noise(length: number, seed: number) {
  let state = seed
  let text = ''
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    text += state.toString(36)
  }
  return text.slice(0, length)
}

function clientBuild(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'first-load-'))
  mkdirSync(join(dir, 'assets'))
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, 'assets', name), code)
  return dir
}

const manifest = (routes: Record<string, { module: string; imports?: string[] }>) =>
  `window.__reactRouterManifest=${JSON.stringify({
    entry: { module: '/assets/entry.client-a.js', imports: ['/assets/framework-f.js'] },
    routes,
  })};`

describe('first-load JavaScript', () => {
  const dir = clientBuild({
    'framework-f.js': `export const React={};${noise(60_000, 1)}`,
    'entry.client-a.js': `import "./framework-f.js";`,
    'root-r.js': `import{a}from"./shared-s.js";import"./framework-f.js";const later=()=>import("./modal-m.js");${noise(4_000, 2)}`,
    'shared-s.js': `export const a=1;${noise(2_000, 3)}`,
    'modal-m.js': `export default 1;${noise(30_000, 4)}`,
    'big-b.js': `import"./shared-s.js";${noise(30_000, 5)}`,
    'manifest-1.js': manifest({
      root: { module: '/assets/root-r.js', imports: ['/assets/shared-s.js'] },
      'routes/small': { module: '/assets/shared-s.js' },
      'routes/big': { module: '/assets/big-b.js' },
    }),
  })

  test("tells the framework's chunk from ours, follows static imports and leaves lazy ones out", () => {
    const page = measureRoutesFirstLoadJs(['root', 'routes/small'], dir)
    expect(page.files.map((file) => file.path).sort()).toEqual([
      '/assets/entry.client-a.js',
      '/assets/framework-f.js',
      '/assets/root-r.js',
      '/assets/shared-s.js',
    ])
    const framework = page.files.find((file) => file.path === '/assets/framework-f.js')?.gzipBytes
    expect(page.frameworkGzipBytes).toBe(framework)
    expect(page.oursGzipBytes).toBe(page.totalGzipBytes - (framework ?? 0))
    expect(page.oursGzipBytes).toBeGreaterThan(4_000)
    expect(page.oursGzipBytes).toBeLessThan(OURS_BUDGET_BYTES)
  })

  test('the same files from a page as the server sends it', () => {
    const html =
      '<link rel="modulepreload" href="/assets/root-r.js"/>' +
      '<script type="module">import * as entry from "/assets/entry.client-a.js";</script>'
    const page = measureFirstLoadJs(html, dir)
    expect(page.files.map((file) => file.path).sort()).toEqual([
      '/assets/entry.client-a.js',
      '/assets/framework-f.js',
      '/assets/root-r.js',
      '/assets/shared-s.js',
    ])
    expect(page.inlineScriptBytes).toBeGreaterThan(0)
  })

  test('a budgeted page over 20 KB of ours fails; one that is reported only does not', () => {
    const small = measureRoutesFirstLoadJs(['root', 'routes/small'], dir)
    const big = measureRoutesFirstLoadJs(['root', 'routes/big'], dir)
    expect(big.oursGzipBytes).toBeGreaterThan(OURS_BUDGET_BYTES)
    const verdicts = firstLoadVerdicts([
      { path: '/small', isBudgeted: true, firstLoad: small },
      { path: '/big', isBudgeted: true, firstLoad: big },
      { path: '/reported', isBudgeted: false, firstLoad: big },
    ])
    expect(verdicts.map(({ budget, pass }) => ({ budget, pass }))).toEqual([
      { budget: 'first-load JavaScript of ours on /small (gzip)', pass: true },
      { budget: 'first-load JavaScript of ours on /big (gzip)', pass: false },
    ])
  })

  test('a build without the framework chunk is an error, not a page of only our bytes', () => {
    const unnamed = clientBuild({
      'entry.client-a.js': 'export{}',
      'manifest-1.js': manifest({ root: { module: '/assets/entry.client-a.js' } }).replace(
        '"/assets/framework-f.js"',
        '"/assets/entry.client-a.js"',
      ),
    })
    expect(() => measureRoutesFirstLoadJs(['root'], unnamed)).toThrow(/framework/)
  })

  test("the budget's pages are the home page, the docs and the task list", () => {
    expect(FIRST_LOAD_PAGES.filter((page) => page.isBudgeted).map((page) => page.path)).toEqual([
      '/',
      '/docs',
      '/docs/testing',
      '/task',
    ])
  })
})
