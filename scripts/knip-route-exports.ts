import type { RouteConfigEntry } from '@react-router/dev/routes'
import type { Preprocessor } from 'knip'
import routes from '../app/routes'

/**
 * Knip's preprocessor for the route modules (knip.ts): their exports are held to account like
 * any other file's, except the names React Router itself reads from a route module, the root and
 * the server entry.
 */

const FRAMEWORK_EXPORTS = new Set([
  // route modules and the root
  'default',
  'loader',
  'action',
  'clientLoader',
  'clientAction',
  'middleware',
  'clientMiddleware',
  'meta',
  'links',
  'headers',
  'handle',
  'shouldRevalidate',
  'ErrorBoundary',
  'HydrateFallback',
  'Layout',
  // app/entry.server.tsx
  'streamTimeout',
  'handleError',
  'handleDataRequest',
])

function filesOf(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [`app/${entry.file}`, ...filesOf(entry.children ?? [])])
}

/** Every module React Router loads by convention: the root, the server entry, each route's file. */
export const routeModules = ['app/root.tsx', 'app/entry.server.tsx', ...new Set(filesOf(routes))]

const preprocess: Preprocessor = (options) => {
  const modules = new Set(routeModules)
  for (const [file, issues] of Object.entries(options.issues.exports)) {
    if (!modules.has(file)) continue
    // A test's `import * as route` keys the issue by the namespace too: the export is `symbol`.
    for (const [key, issue] of Object.entries(issues)) {
      if (!FRAMEWORK_EXPORTS.has(issue.symbol)) continue
      delete issues[key]
      options.counters.exports -= 1
    }
    if (Object.keys(issues).length === 0) delete options.issues.exports[file]
  }
  return options
}

export default preprocess
