import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Unit and route tests. The React Router plugin is left out on purpose: tests import route
 * modules and call their loaders and actions directly, and the plugin would try to run the app's
 * dev server machinery (route module splitting, virtual modules) that plain node tests never need.
 */
export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    // server/app.ts imports the build Vite makes; tests assemble the same from app/routes.ts.
    alias: { 'virtual:react-router/server-build': resolve('tests/helpers/server-build.ts') },
  },
  test: {
    environment: 'node',
    include: [
      'app/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'tests/{unit,integration,fuzz}/**/*.test.{ts,tsx}',
    ],
    exclude: ['tests/e2e/**', 'node_modules/**', 'build/**'],
    // Every test file runs in its own module graph, so each gets its own database (see the setup).
    setupFiles: ['./tests/setup/database.ts'],
  },
})
