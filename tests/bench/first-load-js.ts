import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * The first-load JavaScript budget (docs/product-rules.md §6): the framework's own bytes, plus at
 * most 20 KB gzip of ours on the pages people land on. "The framework" is the client chunk
 * vite.config.ts names `framework` — React, React DOM, React Router and the modules they import —
 * so the split is read off the build, not estimated. Everything else a first load fetches is ours:
 * our code, the libraries we chose, the entry that hydrates the document and the bundler's
 * runtime. The manifest and hydration data inline in the HTML are reported beside, not counted.
 */
export const OURS_BUDGET_BYTES = 20 * 1024

/** The framework's chunk, as vite.config.ts names it. */
const FRAMEWORK_FILE = /\/framework-[\w-]+\.js$/

/**
 * The pages the budget holds, as React Router's route ids: the public pages anonymously and the
 * task list signed in. `/dashboard` is reported beside them.
 */
export const FIRST_LOAD_PAGES = [
  { path: '/', routes: ['root', 'routes/home'], isSignedIn: false, isBudgeted: true },
  {
    path: '/docs',
    routes: ['root', 'routes/docs/layout', 'routes/docs/index'],
    isSignedIn: false,
    isBudgeted: true,
  },
  {
    path: '/docs/testing',
    routes: ['root', 'routes/docs/layout', 'routes/docs/doc'],
    isSignedIn: false,
    isBudgeted: true,
  },
  { path: '/task', routes: ['root', 'routes/tasks/index'], isSignedIn: true, isBudgeted: true },
  { path: '/dashboard', routes: ['root', 'routes/dashboard/index'], isSignedIn: true, isBudgeted: false },
] as const

export type FirstLoadJs = {
  files: {
    path: string
    bytes: number
    gzipBytes: number
    /** What our server actually sent to a browser that accepts gzip and brotli. */
    served?: { bytes: number; encoding: string; cacheControl: string }
  }[]
  totalBytes: number
  totalGzipBytes: number
  /** The framework chunk's share of the total. */
  frameworkGzipBytes: number
  /** Everything else: what the budget limits. */
  oursGzipBytes: number
  /** The page's inline scripts (manifest, hydration data, theme guard), gzipped with it. */
  inlineScriptBytes: number
}

/** Static `import … from "x"`, `import "x"` and `export … from "x"` in minified module code. */
const STATIC_IMPORT = /(?:^|[\s;}])(?:import|export)\s*(?:[\w$*{},\s]*?from\s*)?["']([^"']+\.js)["']/g

/**
 * The JavaScript a browser must download to run a page on first load: every `<script src>`, every
 * `<link rel="modulepreload">`, what the inline module scripts import (React Router's entry), and
 * everything those files import statically. Lazy `import()` inside the bundles is not counted —
 * it loads on demand. Sizes are of the files in build/client, gzipped at level 6 as
 * `compression` does.
 */
export function measureFirstLoadJs(html: string, clientDir: string): FirstLoadJs {
  const urls: string[] = []
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (src) urls.push(src)
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1]
    if (href && /\brel="modulepreload"/.test(tag)) urls.push(href)
  }
  let inline = ''
  for (const [, code] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    if (!code) continue
    inline += code
    for (const [, url] of code.matchAll(/(?:from\s*|import\s*\(\s*)["'](\/[^"']+\.js)["']/g))
      if (url) urls.push(url)
  }
  return { ...measureModules(urls, clientDir), inlineScriptBytes: gzipSync(inline, { level: 6 }).length }
}

/**
 * The same count without a server, from the build alone: the entry and the given routes' modules
 * as React Router's client manifest lists them, and what they import statically. This is what
 * the browser loads for a page matching those routes (`npm test` checks the budget this way).
 */
export function measureRoutesFirstLoadJs(routeIds: readonly string[], clientDir: string): FirstLoadJs {
  const manifest = readClientManifest(clientDir)
  const urls = [manifest.entry.module, ...manifest.entry.imports]
  for (const id of routeIds) {
    const route = manifest.routes[id]
    if (!route) throw new Error(`React Router's client manifest has no route '${id}'`)
    urls.push(route.module, ...(route.imports ?? []))
  }
  return { ...measureModules(urls, clientDir), inlineScriptBytes: 0 }
}

type ClientManifest = {
  entry: { module: string; imports: string[] }
  routes: Record<string, { module: string; imports?: string[] }>
}

function readClientManifest(clientDir: string): ClientManifest {
  const assets = join(clientDir, 'assets')
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name))
  if (!file) throw new Error(`No React Router manifest in ${assets}: run the build first`)
  const source = readFileSync(join(assets, file), 'utf8')
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as ClientManifest
}

function measureModules(urls: string[], clientDir: string): Omit<FirstLoadJs, 'inlineScriptBytes'> {
  const queue: string[] = []
  const add = (url: string) => {
    const path = new URL(url, 'http://x/').pathname
    if (path.endsWith('.js') && !queue.includes(path)) queue.push(path)
  }
  for (const url of urls) add(url)

  const files: FirstLoadJs['files'] = []
  for (let i = 0; i < queue.length; i++) {
    const path = queue[i] as string
    const file = join(clientDir, path)
    if (!existsSync(file)) throw new Error(`${path} is referenced by the page but missing from ${clientDir}`)
    const source = readFileSync(file)
    files.push({ path, bytes: source.length, gzipBytes: gzipSync(source, { level: 6 }).length })
    for (const [, specifier] of source.toString('utf8').matchAll(STATIC_IMPORT)) {
      if (specifier?.startsWith('.') || specifier?.startsWith('/')) {
        add(specifier.startsWith('/') ? specifier : posix.join(posix.dirname(path), specifier))
      }
    }
  }
  const totalGzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0)
  const frameworkGzipBytes = files
    .filter((f) => FRAMEWORK_FILE.test(f.path))
    .reduce((sum, f) => sum + f.gzipBytes, 0)
  if (frameworkGzipBytes === 0) {
    throw new Error('No framework-*.js chunk in the first load: has vite.config.ts stopped naming it?')
  }
  return {
    files,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    totalGzipBytes,
    frameworkGzipBytes,
    oursGzipBytes: totalGzipBytes - frameworkGzipBytes,
  }
}

export type PageFirstLoad = { path: string; isBudgeted: boolean; firstLoad: FirstLoadJs }
export type FirstLoadVerdict = { budget: string; measured: string; pass: boolean }

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** One verdict per budgeted page: our bytes within `OURS_BUDGET_BYTES`. */
export function firstLoadVerdicts(pages: PageFirstLoad[]): FirstLoadVerdict[] {
  return pages
    .filter((page) => page.isBudgeted)
    .map(({ path, firstLoad }) => ({
      budget: `first-load JavaScript of ours on ${path} (gzip)`,
      measured: `${kb(firstLoad.oursGzipBytes)} (≤ ${kb(OURS_BUDGET_BYTES)})`,
      pass: firstLoad.oursGzipBytes <= OURS_BUDGET_BYTES,
    }))
}

/** The per-page report: totals, the split, and the largest of our files. */
export function firstLoadReport(pages: PageFirstLoad[]): string[] {
  const lines = [
    `First-load JavaScript (gzip): the framework chunk, plus ours (budget ${kb(OURS_BUDGET_BYTES)})`,
  ]
  for (const { path, isBudgeted, firstLoad } of pages) {
    lines.push(
      `  ${path.padEnd(16)}${kb(firstLoad.totalGzipBytes).padStart(10)} = framework ${kb(firstLoad.frameworkGzipBytes)}` +
        ` + ours ${kb(firstLoad.oursGzipBytes)} in ${firstLoad.files.length - 1} files` +
        `${isBudgeted ? '' : ' (reported, not budgeted)'}; + ${kb(firstLoad.inlineScriptBytes)} inline`,
    )
    const largest = firstLoad.files
      .filter((file) => !FRAMEWORK_FILE.test(file.path))
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .slice(0, 3)
    lines.push(
      `${' '.repeat(18)}largest of ours: ${largest.map((f) => `${f.path} ${kb(f.gzipBytes)}`).join(', ')}`,
    )
  }
  return lines
}

/**
 * Measures every page of `FIRST_LOAD_PAGES` through `fetchPage` (the bench's running server), so
 * what is counted is what a browser is really sent, and judges the budget: a budgeted page that
 * cannot be measured fails it too.
 */
export async function checkFirstLoadBudget(
  fetchPage: (path: string, isSignedIn: boolean) => Promise<{ status: number; html: string }>,
  clientDir: string,
): Promise<{ pages: PageFirstLoad[]; verdicts: FirstLoadVerdict[]; lines: string[]; pass: boolean }> {
  const pages: PageFirstLoad[] = []
  const unmeasured: FirstLoadVerdict[] = []
  for (const { path, isSignedIn, isBudgeted } of FIRST_LOAD_PAGES) {
    const { status, html } = await fetchPage(path, isSignedIn)
    if (status === 200) pages.push({ path, isBudgeted, firstLoad: measureFirstLoadJs(html, clientDir) })
    else if (isBudgeted)
      unmeasured.push({
        budget: `first-load JavaScript of ours on ${path} (gzip)`,
        measured: `page answered ${status}`,
        pass: false,
      })
  }
  const verdicts = [...firstLoadVerdicts(pages), ...unmeasured]
  return { pages, verdicts, lines: firstLoadReport(pages), pass: verdicts.every((verdict) => verdict.pass) }
}
