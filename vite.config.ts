import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, isRunnableDevEnvironment, type Plugin } from 'vite'

/**
 * Under `npm run dev` the event streams, which production serves ahead of React Router
 * (server/app.ts), come from the same handler loaded into the app's SSR environment.
 */
function eventStreamsInDev(): Plugin {
  return {
    name: 'threadwork:event-streams',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const ssr = server.environments.ssr
        if (!req.url?.startsWith('/api/events/') || !ssr || !isRunnableDevEnvironment(ssr)) return next()
        ssr.runner
          .import<typeof import('./server/event-streams-dev')>('/server/event-streams-dev.ts')
          .then(({ handleEventStreams }) => handleEventStreams(req, res, next))
          .catch(next)
      })
    },
  }
}

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The production server (server/app.ts) is the SSR entry, so it shares one module graph — one
  // database client, one set of router contexts — with the routes it serves.
  environments: {
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
  },
  plugins: [tailwindcss(), eventStreamsInDev(), reactRouter()],
})
