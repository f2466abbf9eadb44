import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  FIRST_LOAD_PAGES,
  firstLoadReport,
  firstLoadVerdicts,
  measureRoutesFirstLoadJs,
} from '../tests/bench/first-load-js'

/**
 * Part of `npm test`, after the build: fails when a chunk the browser downloads holds drizzle
 * code, or when a page's first load holds more of our JavaScript than the budget allows
 * (tests/bench/first-load-js.ts; counted from the build's manifest, so it needs no server).
 *
 * Drizzle:  One page importing a constant from app/db/schema/ (instead of app/domain/constants.ts)
 * ships drizzle's classes and every table definition to every visitor of that page (~24 KB), and
 * nothing else would notice.
 *
 * The markers are strings minifiers keep: the names drizzle gives its entity classes and the
 * `drizzle:` symbols its tables are built with. tests/unit/client-bundle.test.ts checks that
 * drizzle-orm's own modules still carry them, so an upgrade cannot blind this check.
 */
const DRIZZLE_MARKERS = [/["'`]drizzle:[A-Za-z]+["'`]/, /["'`]SQLiteTable["'`]/, /["'`]SQLiteColumn["'`]/]

export function drizzleMarkersIn(code: string) {
  return DRIZZLE_MARKERS.flatMap((marker) => marker.exec(code)?.[0] ?? [])
}

function javascriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return javascriptFiles(path)
    return entry.name.endsWith('.js') ? [path] : []
  })
}

/** Each client chunk holding drizzle code, with the markers found in it. */
export function chunksWithDrizzle(clientDir: string) {
  return javascriptFiles(clientDir).flatMap((file) => {
    const markers = drizzleMarkersIn(readFileSync(file, 'utf8'))
    return markers.length > 0 ? [{ file: relative(clientDir, file), markers }] : []
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const clientDir = process.argv[2] ?? 'build/client'
  const offending = chunksWithDrizzle(clientDir)
  if (offending.length > 0) {
    console.error('Client chunks contain drizzle code (import shared constants from ~/domain/constants):')
    for (const { file, markers } of offending) console.error(`  ${file}: ${markers.join(', ')}`)
    process.exitCode = 1
  } else {
    console.log(`No drizzle code in ${clientDir}.`)
  }

  const pages = FIRST_LOAD_PAGES.map(({ path, routes, isBudgeted }) => ({
    path,
    isBudgeted,
    firstLoad: measureRoutesFirstLoadJs(routes, clientDir),
  }))
  console.log(firstLoadReport(pages).join('\n'))
  for (const verdict of firstLoadVerdicts(pages).filter((verdict) => !verdict.pass)) {
    console.error(`Over budget: ${verdict.budget}: ${verdict.measured}`)
    process.exitCode = 1
  }
}
