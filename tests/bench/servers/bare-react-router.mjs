// The framework floor of the performance budget: the same server build as `node server.js`, served by
// `@react-router/node`'s createRequestListener on node:http with nothing around it — no
// security headers, static files, compression or request log. Plain JavaScript, so it starts
// exactly like server.js (no TypeScript loader in the process being measured).
import { createServer } from 'node:http'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestListener } from '@react-router/node'

const { serverBuild } = await import(pathToFileURL(resolve('build/server/index.js')).href)
if (!serverBuild) throw new Error('build/server/index.js does not export serverBuild: run `npm run build`')

const server = createServer(createRequestListener({ build: serverBuild, mode: 'production' }))
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`bare React Router listening on ${process.env.PORT}`)
})
process.once('SIGTERM', () => process.exit(0))
