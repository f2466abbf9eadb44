import { existsSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { gzipSync } from 'node:zlib'

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
  const queue: string[] = []
  const add = (url: string) => {
    const path = new URL(url, 'http://x/').pathname
    if (path.endsWith('.js') && !queue.includes(path)) queue.push(path)
  }
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (src) add(src)
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1]
    if (href && /\brel="modulepreload"/.test(tag)) add(href)
  }
  let inline = ''
  for (const [, code] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    if (!code) continue
    inline += code
    for (const [, url] of code.matchAll(/(?:from\s*|import\s*\(\s*)["'](\/[^"']+\.js)["']/g))
      if (url) add(url)
  }

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
  return {
    files,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
    inlineScriptBytes: gzipSync(inline, { level: 6 }).length,
  }
}
