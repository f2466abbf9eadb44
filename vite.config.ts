import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The production server (server/app.ts) is the SSR entry, so it shares one module graph — one
  // database client, one set of router contexts — with the routes it serves.
  environments: {
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
  },
  plugins: [tailwindcss(), reactRouter()],
})
