// The framework floor (docs/product-rules.md §6): a minimal React Router app of its own
// (floor-app/, built by the bench), served by `@react-router/node`'s createRequestListener on
// node:http with nothing around it. `/trivial` is a resource route answering tiny JSON; `/page`
// is a page of about the home page's markup. Nothing of ours runs here: no root loader, no
// middleware, no database. Plain JavaScript, so it starts exactly like server.js.
import { createServer } from 'node:http'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestListener } from '@react-router/node'

const buildFile = resolve('tests/bench/servers/floor-app/build/server/index.js')
const build = await import(pathToFileURL(buildFile).href)

const server = createServer(createRequestListener({ build, mode: 'production' }))
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`React Router floor listening on ${process.env.PORT}`)
})
process.once('SIGTERM', () => process.exit(0))
