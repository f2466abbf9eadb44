import { defineConfig } from 'vitest/config'

/**
 * Unit and route tests. The React Router plugin is left out on purpose: tests import route
 * modules and call their loaders and actions directly, and the plugin would try to run the app's
 * dev server machinery (route module splitting, virtual modules) that plain node tests never need.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: 'node',
    include: ['app/**/*.test.{ts,tsx}', 'tests/{unit,integration,fuzz}/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**', 'build/**'],
    // Every test file runs in its own module graph, so each gets its own database (see the setup).
    setupFiles: ['./tests/setup/database.ts'],
  },
})
