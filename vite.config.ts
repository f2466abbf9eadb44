import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

/**
 * The framework's own modules: React, React DOM and React Router with what they import. The
 * client build puts them in one chunk named `framework`, so the first-load budget can tell the
 * framework's bytes from ours by file name (tests/bench/first-load-js.ts, docs/product-rules.md §6),
 * and a release that changes only our code leaves that chunk cached in browsers.
 */
const FRAMEWORK_MODULES =
  /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/

/**
 * Our UI kit and the few helpers every page's forms use, in one chunk `ui`: nearly every page
 * needs them, and as one file they cost less on a first load than as a dozen files of a few
 * hundred bytes each.
 */
const UI_KIT_MODULES =
  /[\\/]app[\\/](components[\\/]ui|components[\\/](action-form|csrf-input|avatar)|utils[\\/](cn|pending|use-hydrated|search-params))[\\/.]/

/**
 * Vite's helper behind every lazy `import()` rides with the toaster, which every page loads and
 * which imports lazily itself: with lazy imports also on /login and /settings (passkeys), the
 * bundler would otherwise give the helper a file of its own on every first load.
 */
const TOASTER_AND_LAZY_IMPORT_HELPER = /vite[\\/]preload-helper|[\\/]app[\\/]components[\\/]toaster\.tsx$/

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The production server (server/app.ts) is the SSR entry, so it shares one module graph — one
  // database client, one set of router contexts — with the routes it serves.
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK_MODULES },
                { name: 'ui', test: UI_KIT_MODULES },
                { name: 'toaster', test: TOASTER_AND_LAZY_IMPORT_HELPER },
              ],
            },
          },
        },
      },
    },
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
  },
  plugins: [tailwindcss(), reactRouter()],
})
