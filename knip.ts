import type { KnipConfig } from 'knip'
import { routeModules } from './scripts/knip-route-exports'

/**
 * `npm run check:unused`: no file, dependency or export that nothing uses. The React Router
 * plugin reads app/routes.ts, so every route module, the root and the entries count as used;
 * `includeEntryExports` then holds their exports to account too, and the preprocessor lets
 * through only the names the framework itself reads (scripts/knip-route-exports.ts).
 */
export default {
  entry: [
    // listed here, not only by the React Router plugin, so their exports are checked too
    ...routeModules,
    // server.js runs the Vite build of server/app.ts (docs/decisions/002-server-built-by-vite.md)
    'server/app.ts',
    // what tests alias the server build's virtual module to (vitest.config.ts)
    'tests/helpers/server-build.ts',
    // npm run bench runs each part in a process of its own (tests/bench/all.ts)
    'tests/bench/*.ts',
    'tests/bench/servers/*.{ts,mjs}',
  ],
  // A separate minimal React Router app the bench serves as the framework's floor
  ignore: ['tests/bench/servers/floor-app/**'],
  // tests/fixtures/tls-proxy.ts makes its test certificate with the system's openssl
  ignoreBinaries: ['openssl'],
  includeEntryExports: true,
  // A server build as React Router reads it: every export is one of the build's fields
  ignoreIssues: { 'tests/helpers/server-build.ts': ['exports'] },
  preprocessor: './scripts/knip-route-exports.ts',
} satisfies KnipConfig
