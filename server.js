// Starts the production build. The server itself is TypeScript in server/app.ts, bundled by
// `npm run build` into build/server/index.js together with the app.
const { startServer } = await import('./build/server/index.js')
await startServer()
