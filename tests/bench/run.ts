/**
 * `npm run bench`: the performance budget (docs/product-rules.md §6), measured as ratios in one run on this
 * machine. Five servers run side by side as child processes, each on its own port (ours with its
 * own copy of one seeded database, seed-discussion.ts: a private task with 50 comments and the
 * session of a collaborator it is shared with, who has 20 tasks):
 *
 * - ours: `node server.js` as deployed (NODE_ENV=production), request log off;
 * - ours + log: the same with the request log on (the production default), stdout drained here;
 * - bare React Router: our server build on `createRequestListener` over node:http — what our
 *   stack around React Router costs;
 * - React Router floor: a minimal React Router app of its own (servers/floor-app, built here) on
 *   the same bare listener — the framework floor the goals are ratios of: its `/trivial` resource
 *   route for resource routes and RPC, its `/page` (a page of about the home page's markup) for
 *   pages. The floor is measured in the same interleaved rounds as the target compared with it;
 * - bare node:http: answers each request with the exact bytes ours sent — the ceiling.
 *
 * Each target is loaded with autocannon (32 connections) on every server in interleaved rounds,
 * rotating the order, so machine noise lands on all sides alike; medians are reported, and a
 * ratio is the median of per-round ratios. Each server's CPU time per request is reported too: it
 * still compares the stacks when other work on the machine makes requests per second swing. The
 * budgets and goals print PASS/FAIL; the ratios are a report, not a gate, but a page over its
 * first-load JavaScript budget (bytes, not timings: first-load-js.ts) makes the exit code 1. Our
 * servers' memory (RSS) is reported idle and at its peak under load, and for the signed-in `/task`
 * on its own: its peak, and again a minute after its load ends (the bench waits that minute),
 * against MEMORY_GOAL. Results also go to
 * tests/bench/results/latest.json; `--write-readme` also writes its table into docs/performance.md and
 * the goals into README.md.
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createORPCClient } from '@orpc/client'
import { RPCLink } from '@orpc/client/fetch'
import type { RouterClient } from '@orpc/server'
import autocannon from 'autocannon'
import type { Router } from '~/rpc/router.server'
import { freePort } from '../helpers/free-port'
import { isWritingDocs, writeBenchSection } from './doc-sections'
import { benchEventStreams, eventStreamOptions } from './event-streams'
import { checkFirstLoadBudget, type FirstLoadJs, measureFirstLoadJs } from './first-load-js'
import {
  cpuTimeMs,
  type RawResponse,
  rawRequest,
  rssBytes,
  runNode,
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from './processes'

const CONNECTIONS = 32
// autocannon stops on whole seconds, so durations are whole seconds.
const WARMUP_SECONDS = Math.ceil(numberFromEnv('BENCH_WARMUP_SECONDS', 1))
const ROUNDS = numberFromEnv('BENCH_ROUNDS', 3)
// Two seconds, so a slow page (a signed-in /task) completes requests in every round on a busy machine.
const ROUND_SECONDS = Math.ceil(numberFromEnv('BENCH_ROUND_SECONDS', 2))
/** Comma-separated target ids to run only those (e.g. while profiling); all by default. */
const ONLY = process.env.BENCH_TARGETS?.split(',').filter(Boolean)
/**
 * A folder for a CPU profile of our server (log off) under the load, written when it stops: open
 * the `.cpuprofile` in Chrome's DevTools. `BENCH_PROFILE_DIR=/tmp/prof BENCH_TARGETS=task`.
 */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR
const profileArgs = () => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : [])

/**
 * Memory of one process under the signed-in `/task` load: its peak RSS at most `peakMb`, and a
 * minute (`settleMs`) after the load ends back within `settledOverIdle` of what it held idle.
 */
const MEMORY_GOAL = { peakMb: 250, settledOverIdle: 0.2, settleMs: 60_000 }

const BUDGET = {
  serverStack: 0.9,
  /** The other public pages (compiled content, served as HTML) against the floor's plain page. */
  contentPage: 0.8,
}

/**
 * The goals of the performance step, each a ratio of one of ours to the floor measured in the
 * same rounds: resource routes and RPC against the floor's trivial resource route, pages against
 * its plain page. Where a target was not measured (left out, or not answering), the goal says so.
 */
const GOALS: { target: string; label: string; min: number; p99Ms?: number }[] = [
  { target: 'healthz', label: '/healthz / floor', min: 0.8 },
  { target: 'rpcRead', label: 'getComments full answer / floor', min: 0.5, p99Ms: 50 },
  { target: 'rpcNotModified', label: 'getComments unchanged (304) / floor', min: 0.8 },
  { target: 'addComment', label: 'addComment / floor', min: 0.25 },
  { target: 'commentForm', label: 'comment form post (no JavaScript) / floor', min: 0.25 },
  { target: 'home', label: '/ anonymous / floor page', min: 0.8 },
  { target: 'docs', label: '/docs anonymous / floor page', min: 0.8 },
  { target: 'task', label: '/task signed in, 20 tasks / floor page', min: 0.5 },
]

const SERVERS = {
  ours: 'ours (log off)',
  oursLogged: 'ours (log on, default)',
  reactRouter: 'bare React Router',
  floor: 'React Router floor',
  nodeHttp: 'bare node:http',
} as const
/** What the floor serves in place of a target: a resource route, or a page. */
const FLOOR_PATHS = { resource: '/trivial', page: '/page' } as const
type ServerKey = keyof typeof SERVERS

type Target = {
  id: string
  label: string
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  /** Headers (merged over `headers`) and body of each next request, whichever connection sends it. */
  nextRequest?: () => { headers: Record<string, string>; body: string }
  /** The status a correct answer has (a redirect for the trivial route). */
  status?: number
  servers: ServerKey[]
  /** What the floor answers in this target's rounds (when `servers` includes it). */
  floor?: keyof typeof FLOOR_PATHS
}

/** A target as one server is asked it: the floor gets its own path, and no cookie or body. */
function requestFor(target: Target, key: ServerKey) {
  if (key !== 'floor') return target
  return {
    ...target,
    method: 'GET' as const,
    path: FLOOR_PATHS[target.floor ?? 'resource'],
    headers: {},
    body: undefined,
    status: 200,
  }
}

/** cpuUs: the server's CPU time per completed request, in µs (undefined off Linux). */
type Round = { rps: number; p50: number; p99: number; failures: number; cpuUs?: number }
type Cell = Round & { rounds: Round[] }

function numberFromEnv(name: string, fallback: number) {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * The signed-in read the budget names: who asks (a session cookie) and for which discussion; and
 * the write path's task with the people who post on it (a session and a CSRF token each).
 */
type Discussion = {
  taskId: string
  cookie: string
  comments: number
  tasks: number
  owner: { name: string; email: string }
  writers: { taskId: string; cookie: string; csrf: string }[]
}

/**
 * What `@orpc/client`'s RPCLink really sends, recorded on a throwaway listener, so the load
 * replays the client's own requests rather than a guess: `comments.getComments` by GET from a
 * signed-in browser (the cookie as RPCLink's `headers` adds it), and the anonymous `healthCheck()`
 * by GET and by POST.
 */
async function captureRpcRequests(discussion: Discussion) {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = []
  const recorder = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      res.setHeader('Content-Type', 'application/json')
      res.end('{"json":null}')
    })
  })
  await new Promise<void>((done) => recorder.listen(0, '127.0.0.1', done))
  const address = recorder.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await rpcClient(port, 'GET', discussion.cookie).comments.getComments({ taskId: discussion.taskId })
  for (const method of ['GET', 'POST'] as const) {
    await rpcClient(port, method).healthCheck()
  }
  recorder.close()
  const [comments, healthGet, healthPost] = seen.map(({ method, path, headers, body }) => {
    const replayed: Record<string, string> = {}
    for (const [name, value] of Object.entries(headers)) {
      // autocannon sets the first three itself for every request it sends. No If-None-Match
      // either (RPCLink sends none): the budget is for full answers, not 304s.
      if (['host', 'connection', 'content-length', 'if-none-match'].includes(name) || value === undefined)
        continue
      replayed[name] = Array.isArray(value) ? value.join(', ') : value
    }
    return { method: method as 'GET' | 'POST', path, headers: replayed, body: body || undefined }
  })
  if (!comments || !healthGet || !healthPost) throw new Error('RPCLink sent no request')
  if (comments.method !== 'GET' || !comments.headers.cookie)
    throw new Error(`RPCLink sent getComments as ${comments.method}, cookie: ${comments.headers.cookie}`)
  return { comments, healthGet, healthPost }
}

/**
 * A comment as the next writer posts it — with their cookie and CSRF token — on the task shared
 * with them, mentioning its owner: as RPCLink sends `comments.addComment`, or as the task modal's
 * form sends it without JavaScript, answered with a redirect back to the modal.
 */
function commentRequests(
  { owner, writers }: Discussion,
  door: 'rpc' | 'form',
): Omit<Target, 'id' | 'label' | 'servers'> {
  const content = `@${owner.name} the numbers look right to me; shipping it on Friday works.`
  const requestOf = ({
    cookie,
    csrf,
    taskId,
  }: Discussion['writers'][number]): {
    headers: Record<string, string>
    body: string
  } =>
    door === 'rpc'
      ? {
          headers: { cookie, 'x-csrf-token': csrf },
          body: JSON.stringify({ json: { taskId, content, mentions: [owner.email] } }),
        }
      : {
          headers: { cookie },
          body: new URLSearchParams({
            csrf,
            intent: 'add',
            taskId,
            content,
            mentions: owner.email,
            redirectTo: `/task?task=${taskId}`,
          }).toString(),
        }
  const [firstWriter] = writers
  if (!firstWriter) throw new Error('the seeded discussion has no writers')
  // Each request is the next person's, across all connections, so the load spreads evenly.
  let next = 0
  const first = requestOf(firstWriter)
  return {
    method: 'POST' as const,
    path: door === 'rpc' ? '/api/rpc/comments/addComment' : '/task/comments',
    headers: {
      'content-type': door === 'rpc' ? 'application/json' : 'application/x-www-form-urlencoded',
      ...first.headers,
    },
    body: first.body,
    nextRequest: () => requestOf(writers[next++ % writers.length] ?? firstWriter),
    ...(door === 'form' ? { status: 302 } : {}),
  }
}

function rpcClient(port: number, method: 'GET' | 'POST', cookie?: string): RouterClient<Router> {
  return createORPCClient(
    new RPCLink({
      url: `http://127.0.0.1:${port}/api/rpc`,
      method: () => method,
      headers: cookie ? { cookie } : {},
    }),
  )
}

/**
 * Every server gets a copy of one seeded database (the discussion and the session behind the
 * cookie), so all of them answer the read with the same rows, hence the same bytes.
 */
async function seedDatabase(work: string, env: NodeJS.ProcessEnv, root: string) {
  const file = join(work, 'seed.db')
  const stdout = await runNode(['--import', 'tsx', 'tests/bench/seed-discussion.ts', file], env, root)
  const discussion = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Discussion
  return { file, discussion }
}

/**
 * Proves the replayed read is the one the budget means before measuring it: our server answers the real
 * client with the whole discussion (threads and reactions included), and only because of the
 * cookie — the task is private, so without it the same call is NOT_FOUND.
 */
async function checkDiscussionRead(port: number, discussion: Discussion) {
  const input = { taskId: discussion.taskId }
  const list = await rpcClient(port, 'GET', discussion.cookie).comments.getComments(input)
  const replies = list.filter((comment) => comment.parentCommentId !== null).length
  const reacted = list.filter((comment) => comment.reactions !== '[]').length
  if (list.length !== discussion.comments || replies === 0 || reacted === 0) {
    throw new Error(
      `getComments answered ${list.length} comments (${replies} replies, ${reacted} with reactions)`,
    )
  }
  const anonymous = await rpcClient(port, 'GET')
    .comments.getComments(input)
    .then(
      () => 'an answer',
      (error: unknown) => (error as { code?: string }).code,
    )
  if (anonymous !== 'NOT_FOUND') throw new Error(`getComments without the cookie got ${anonymous}`)
  return { comments: list.length, replies, reacted }
}

/** Proves the signed-in `/task` measured is the seeded person's list of all their tasks. */
function checkTaskList(html: string, discussion: Discussion) {
  const own = new Set(html.match(/Release chore \d+:/g) ?? [])
  const shared = html.includes('Plan the spring release') ? 1 : 0
  if (own.size + shared !== discussion.tasks) {
    throw new Error(`/task listed ${own.size} own and ${shared} shared tasks, not ${discussion.tasks}`)
  }
}

async function measure(port: number, target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${target.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: target.method,
    headers: target.headers,
    body: target.body,
    requests: target.nextRequest && [
      {
        setupRequest: (request) => {
          const next = target.nextRequest?.()
          return next
            ? { ...request, headers: { ...request.headers, ...next.headers }, body: next.body }
            : request
        },
      },
    ],
  })
}

function roundOf(result: autocannon.Result, target: Target, cpuMs: number | undefined): Round {
  const expected = `${String(target.status ?? 200)[0]}xx` as '2xx' | '3xx'
  const isNoneAnswered = result.requests.total === 0
  // A round in which no answer came back has no latencies, not latencies of 0: every request took
  // at least the whole round, which is what its p50 and p99 then say (a slow read on a busy machine).
  const wholeRoundMs = result.duration * 1000
  return {
    cpuUs: cpuMs === undefined || isNoneAnswered ? undefined : (cpuMs * 1000) / result.requests.total,
    rps: result.requests.total / result.duration,
    p50: isNoneAnswered ? wholeRoundMs : result.latency.p50,
    p99: isNoneAnswered ? wholeRoundMs : result.latency.p99,
    failures:
      result.errors +
      result['1xx'] +
      result['2xx'] +
      result['3xx'] +
      result['4xx'] +
      result['5xx'] -
      result[expected],
  }
}

async function check(server: ServerProcess, target: Target): Promise<RawResponse> {
  const response = await rawRequest(server.port, target)
  if (response.status !== (target.status ?? 200)) {
    throw new Error(
      `${server.name}: ${target.method} ${target.path} answered ${response.status}: ${response.body.toString().slice(0, 300)}\n${server.stderr()}`,
    )
  }
  return response
}

const fmt = {
  rps: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => n.toFixed(1),
  ratio: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '—' : `${n.toFixed(2)}x`),
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
}
const pad = (text: string, width: number) => text.padEnd(width)
const padLeft = (text: string, width: number) => text.padStart(width)

async function main() {
  const root = process.cwd()
  const serverBuildFile = resolve(root, 'build/server/index.js')
  if (!/export\s*\{[^}]*\bserverBuild\b/.test(readFileSync(serverBuildFile, 'utf8'))) {
    throw new Error('build/server/index.js does not export serverBuild: run `npm run build` first')
  }
  const work = mkdtempSync(join(tmpdir(), 'threadwork-bench-'))
  const servers: Partial<Record<ServerKey, ServerProcess>> = {}
  const stopAll = () => Promise.all(Object.values(servers).map((server) => stopServer(server)))
  // A crash or Ctrl-C must not leave servers behind on their ports.
  process.once('exit', () => {
    for (const server of Object.values(servers)) server.child.kill('SIGKILL')
  })

  try {
    const sessionSecret = randomBytes(32).toString('hex')
    const envFor = (name: string, port: number, logRequests: boolean) =>
      serverEnv(port, `file:${join(work, `${name}.db`)}`, {
        LOG_REQUESTS: String(logRequests),
        SESSION_SECRET: sessionSecret,
      })
    const start = async (key: ServerKey, args: string[], logRequests = false) => {
      const port = await freePort()
      servers[key] = await startServer({
        name: SERVERS[key],
        args,
        port,
        env: envFor(key, port, logRequests),
        cwd: root,
      })
    }

    console.log('Seeding the discussion…')
    // Migrated by the seed, so the bare listener, which runs no migrations, has the schema too.
    const seed = await seedDatabase(work, envFor('seed', 0, false), root)
    for (const key of ['ours', 'oursLogged', 'reactRouter'] as const) {
      copyFileSync(seed.file, join(work, `${key}.db`))
    }
    const { discussion } = seed

    console.log('Building the React Router floor…')
    await runNode(
      [resolve(root, 'node_modules/@react-router/dev/bin.js'), 'build', 'tests/bench/servers/floor-app'],
      { ...process.env, NODE_ENV: 'production' },
      root,
    )

    console.log('Starting servers…')
    await Promise.all([
      start('ours', [...profileArgs(), 'server.js']),
      start('oursLogged', ['server.js'], true),
      start('reactRouter', ['tests/bench/servers/bare-react-router.mjs']),
      start('floor', ['tests/bench/servers/floor.mjs']),
    ])
    const ours = servers.ours as ServerProcess
    // Settled after start (migrations checked, content warmed), before any request.
    await sleep(1000)
    const idleRss = { ours: rssBytes(ours.child), floor: rssBytes((servers.floor as ServerProcess).child) }

    const rpc = await captureRpcRequests(discussion)
    // The replayed requests are the real client's: prove our server answers that client.
    const read = await checkDiscussionRead(ours.port, discussion)
    for (const method of ['GET', 'POST'] as const) {
      const health = await rpcClient(ours.port, method).healthCheck()
      if (health.status !== 'ok')
        throw new Error(`healthCheck by ${method} answered ${JSON.stringify(health)}`)
    }

    const page = (id: string, path: string, servers: ServerKey[] = ['ours', 'floor']): Target => ({
      id,
      label: `GET ${path}`,
      method: 'GET',
      path,
      headers: { accept: 'text/html' },
      servers,
      floor: 'page',
    })
    const targets: Target[] = [
      {
        // The most trivial resource route the app has: a loader that only redirects, no database,
        // no body. Ours against our own build on bare React Router: what our stack costs.
        id: 'trivial',
        label: 'GET /resources/theme',
        method: 'GET',
        path: '/resources/theme',
        // As a browser asks: the stack's compression step then does all it does for real visitors.
        headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
        status: 302,
        servers: ['ours', 'oursLogged', 'reactRouter'],
      },
      {
        id: 'healthz',
        label: 'GET /healthz',
        method: 'GET',
        path: '/healthz',
        headers: {},
        servers: ['ours', 'oursLogged', 'floor'],
      },
      {
        // The goal's read: a signed-in browser's poll of a discussion of 50 comments, the full answer.
        id: 'rpcRead',
        label: 'rpc getComments GET',
        ...rpc.comments,
        servers: ['ours', 'oursLogged', 'floor', 'nodeHttp'],
      },
      // The write path: a comment that mentions the task's owner, so its event, notification and
      // e-mail job are written too; each request posts one, spread over many people.
      {
        id: 'addComment',
        label: 'rpc addComment POST',
        ...commentRequests(discussion, 'rpc'),
        servers: ['ours', 'floor'],
      },
      // The same comment from the task modal's form without JavaScript: its redirect back.
      {
        id: 'commentForm',
        label: 'form comment POST',
        ...commentRequests(discussion, 'form'),
        servers: ['ours', 'floor'],
      },
      page('home', '/', ['ours', 'oursLogged', 'reactRouter', 'floor']),
      // Content pages: MDX is compiled once per file version, so they must serve like plain pages.
      page('docs', '/docs'),
      page('doc', '/docs/testing'),
      page('blog', '/blog'),
      page('pricing', '/pricing'),
      page('changelog', '/changelog'),
      // The signed-in app: the viewer's 20 tasks, the header's account menu and bell.
      {
        ...page('task', '/task'),
        label: `GET /task (${discussion.tasks} tasks)`,
        headers: { accept: 'text/html', cookie: discussion.cookie },
      },
    ]

    // The bytes the bare node:http server will answer with, exactly as ours sent them.
    const responses: Record<string, { contentType: string; body: string; gzip?: string }> = {}
    let homeHtml = ''
    // A target a server cannot answer right (a route not built yet, a broken page) is reported and
    // left out, so one bad route does not hide every other number.
    const skipped: string[] = []
    const answering = async (server: ServerProcess, target: Target) => {
      try {
        return await check(server, target)
      } catch (error) {
        skipped.push(`${target.label}: ${error instanceof Error ? error.message : String(error)}`)
        return undefined
      }
    }
    let usable: Target[] = []
    let readAnswer: ReadAnswer | undefined
    for (const target of targets) {
      const response = await answering(ours, target)
      if (!response) continue
      usable.push(target)
      if (target.id === 'rpcRead') {
        readAnswer = {
          ...read,
          bytes: response.body.length,
          encoding: response.headers['content-encoding'] ?? 'none',
          etag: response.headers.etag ?? '',
        }
      }
      if (!target.servers.includes('nodeHttp')) continue
      const key = `${target.method} ${target.path}`
      const entry = responses[key] ?? { contentType: response.headers['content-type'] ?? '', body: '' }
      responses[key] = entry
      if (response.headers['content-encoding'] === 'gzip') entry.gzip = response.body.toString('base64')
      else entry.body = response.body.toString('base64')
    }
    const home = usable.find((target) => target.id === 'home')
    if (home) homeHtml = (await check(ours, home)).body.toString('utf8')
    if (!homeHtml) throw new Error(`the home page, which every budget needs, failed:\n${skipped.join('\n')}`)
    const taskList = usable.find((target) => target.id === 'task')
    if (taskList) checkTaskList((await check(ours, taskList)).body.toString('utf8'), discussion)
    if (readAnswer?.etag) {
      // What a poll that finds nothing new sends: the same read with the ETag it was last given.
      usable.push({
        ...rpc.comments,
        id: 'rpcNotModified',
        label: 'rpc getComments 304',
        headers: { ...rpc.comments.headers, 'if-none-match': readAnswer.etag },
        status: 304,
        servers: ['ours', 'floor'],
      })
    }
    const responsesFile = join(work, 'responses.json')
    writeFileSync(responsesFile, JSON.stringify(responses))
    const nodeHttpPort = await freePort()
    servers.nodeHttp = await startServer({
      name: SERVERS.nodeHttp,
      args: ['tests/bench/servers/bare-node-http.mjs'],
      port: nodeHttpPort,
      env: { ...envFor('nodeHttp', nodeHttpPort, false), BENCH_RESPONSES: responsesFile },
      cwd: root,
    })
    const checked: Target[] = []
    for (const target of usable) {
      let ok = true
      for (const key of target.servers)
        ok = ok && (await answering(servers[key] as ServerProcess, requestFor(target, key))) !== undefined
      if (ok) checked.push(target)
    }
    usable = checked

    const firstLoad = measureFirstLoadJs(homeHtml, resolve(root, 'build/client'))
    // The budget assumes the files travel compressed: check what the server really sends.
    for (const file of firstLoad.files) {
      const response = await rawRequest(ours.port, {
        method: 'GET',
        path: file.path,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      })
      file.served = {
        bytes: response.body.length,
        encoding: response.headers['content-encoding'] ?? 'none',
        cacheControl: response.headers['cache-control'] ?? '',
      }
    }

    // The pages a person lands on, public ones anonymously and the app signed in, against the budget.
    const pages = await checkFirstLoadBudget(
      async (path, isSignedIn) => {
        const headers: Record<string, string> = { accept: 'text/html' }
        if (isSignedIn) headers.cookie = seed.discussion.cookie
        const response = await rawRequest(ours.port, { method: 'GET', path, headers })
        return { status: response.status, html: response.body.toString('utf8') }
      },
      resolve(root, 'build/client'),
    )
    if (!pages.pass) process.exitCode = 1

    const measured = ONLY ? usable.filter((target) => ONLY.includes(target.id)) : usable
    const cells: Record<string, Partial<Record<ServerKey, Cell>>> = {}
    let peakRss = 0
    /** `/task`'s own peak, and when its last round ended. */
    const taskLoad = { peak: 0, endedAt: 0 }
    let loggedRequests = 0
    const cellCount = measured.reduce((sum, target) => sum + target.servers.length, 0)
    // Each autocannon run also spends about 0.25 s connecting, settling and pausing.
    const expectedSeconds = cellCount * (WARMUP_SECONDS + ROUNDS * ROUND_SECONDS + (ROUNDS + 1) * 0.25)
    const loadBefore = loadavg()[0] ?? 0
    console.log(
      `Measuring ${cellCount} target × server pairs: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, ` +
        `${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s (≈${Math.round(expectedSeconds)} s)…`,
    )
    for (const target of measured) {
      const startedAt = performance.now()
      const rounds: Partial<Record<ServerKey, Round[]>> = {}
      // One server at a time, so each has the machine to itself while its JIT warms up: warming
      // them together left the first measured rounds still climbing, against whoever went first.
      for (const key of target.servers) {
        const result = await measure(
          (servers[key] as ServerProcess).port,
          requestFor(target, key),
          WARMUP_SECONDS,
        )
        if (key === 'oursLogged') loggedRequests += result.requests.total
        await sleep(200)
      }
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate who goes first, so no server always follows the same neighbour.
        const order = target.servers.map((_, i, list) => list[(i + round) % list.length] as ServerKey)
        for (const key of order) {
          const server = servers[key] as ServerProcess
          const cpuBefore = cpuTimeMs(server.child)
          const sampling = key === 'ours' ? sampleRss(server) : undefined
          const result = await measure(server.port, requestFor(target, key), ROUND_SECONDS)
          if (sampling) {
            const peak = sampling.stop()
            peakRss = Math.max(peakRss, peak)
            if (target.id === 'task')
              Object.assign(taskLoad, { peak: Math.max(taskLoad.peak, peak), endedAt: Date.now() })
          }
          const cpuAfter = cpuTimeMs(server.child)
          const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
          if (key === 'oursLogged') loggedRequests += result.requests.total
          rounds[key] = [...(rounds[key] ?? []), roundOf(result, requestFor(target, key), cpuMs)]
          await sleep(200)
        }
      }
      cells[target.id] = {}
      for (const key of target.servers) {
        const list = rounds[key] ?? []
        ;(cells[target.id] as Partial<Record<ServerKey, Cell>>)[key] = {
          rounds: list,
          rps: median(list.map((r) => r.rps)),
          p50: median(list.map((r) => r.p50)),
          p99: median(list.map((r) => r.p99)),
          failures: list.reduce((sum, r) => sum + r.failures, 0),
          cpuUs: list.every((r) => r.cpuUs !== undefined) ? median(list.map((r) => r.cpuUs ?? 0)) : undefined,
        }
      }
      process.stdout.write(
        `  ${target.label} done in ${Math.round((performance.now() - startedAt) / 1000)} s\n`,
      )
    }
    const load = { before: loadBefore, after: loadavg()[0] ?? 0 }
    await sleep(1000)
    const afterLoad = rssBytes(ours.child)
    let taskSettled: number | undefined
    if (taskLoad.endedAt > 0) {
      const waitMs = taskLoad.endedAt + MEMORY_GOAL.settleMs - Date.now()
      console.log(
        `  waiting ${Math.round(waitMs / 1000)} s: our server's memory a minute after the /task load…`,
      )
      await sleep(waitMs)
      taskSettled = rssBytes(ours.child)
    }
    const memory: Memory = {
      idle: idleRss.ours,
      peak: peakRss || undefined,
      afterLoad,
      floorIdle: idleRss.floor,
      taskPeak: taskLoad.peak || undefined,
      taskSettled,
    }
    // The request log is counted once the server has stopped and its last line is out.
    await stopAll()
    const logLines = await (servers.oursLogged as ServerProcess).stdoutLines

    report({
      targets: measured,
      cells,
      firstLoad,
      pages,
      logLines,
      loggedRequests,
      load,
      skipped,
      readAnswer,
      memory,
    })
  } finally {
    await stopAll()
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Our server's resident memory: settled after start, at its peak under load, and after it; and
 * under the `/task` load alone, its peak and a minute after it ended.
 */
type Memory = {
  idle?: number
  peak?: number
  afterLoad?: number
  floorIdle?: number
  taskPeak?: number
  taskSettled?: number
}

/** The `/task` memory goal's two verdicts, when `/task` was measured. */
function taskMemoryVerdicts(memory: Memory) {
  const { idle, taskPeak, taskSettled } = memory
  if (idle === undefined || taskPeak === undefined || taskSettled === undefined) return undefined
  const overIdle = taskSettled / idle - 1
  return {
    peak: { pass: taskPeak <= MEMORY_GOAL.peakMb * 1024 * 1024 },
    settled: { overIdle, pass: overIdle <= MEMORY_GOAL.settledOverIdle },
  }
}

/** Samples a server's RSS every 100 ms while it is loaded; `stop()` gives the highest seen. */
function sampleRss(server: ServerProcess) {
  let peak = rssBytes(server.child) ?? 0
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(server.child) ?? 0)
  }, 100)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(peak, rssBytes(server.child) ?? 0)
    },
  }
}

/** What the measured read answers, as sent by ours: its size on the wire and its ETag. */
type ReadAnswer = {
  comments: number
  replies: number
  reacted: number
  bytes: number
  encoding: string
  etag: string
}

function report(input: {
  readAnswer: ReadAnswer | undefined
  targets: Target[]
  cells: Record<string, Partial<Record<ServerKey, Cell>>>
  firstLoad: FirstLoadJs
  pages: Awaited<ReturnType<typeof checkFirstLoadBudget>>
  logLines: number
  loggedRequests: number
  load: { before: number; after: number }
  skipped: string[]
  memory: Memory
}) {
  const { targets, cells, firstLoad } = input
  const cell = (target: string, server: ServerKey) => cells[target]?.[server]
  /**
   * Throughput of one cell over another. Within a target, rounds of the same index ran back to
   * back, so the ratio is taken per round and its median reported: a burst of other work on the
   * machine then cancels out instead of landing on one side.
   */
  const ratio = (target: string, server: ServerKey, base: ServerKey, baseTarget = target) => {
    const a = cell(target, server)
    const b = cell(baseTarget, base)
    if (!a || !b) return undefined
    if (target !== baseTarget || a.rounds.length !== b.rounds.length) return a.rps / b.rps
    return median(a.rounds.map((round, i) => round.rps / (b.rounds[i]?.rps ?? Number.NaN)))
  }
  /** The same comparison from CPU time per request: how many requests each could serve per core. */
  const cpuRatio = (target: string, server: ServerKey, base: ServerKey, baseTarget = target) => {
    const a = cell(target, server)?.cpuUs
    const b = cell(baseTarget, base)?.cpuUs
    return a && b ? b / a : undefined
  }

  const lines: string[] = []
  lines.push('')
  lines.push(
    `Threadwork bench — ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds × ${ROUND_SECONDS} s, ` +
      `node ${process.version}, ${availableParallelism()} CPUs`,
  )
  const busiest = Math.max(input.load.before, input.load.after)
  lines.push(
    `Load average ${input.load.before.toFixed(1)} before, ${input.load.after.toFixed(1)} after` +
      (busiest > availableParallelism()
        ? ' — the machine was busy with other work: absolute numbers are low and ratios noisy.'
        : ''),
  )
  lines.push('')
  lines.push(
    `${pad('target', 22)}${pad('server', 25)}${padLeft('req/s', 9)}${padLeft('p50 ms', 9)}${padLeft('p99 ms', 9)}${padLeft('CPU µs/req', 12)}${padLeft('failed', 8)}`,
  )
  for (const target of targets) {
    target.servers.forEach((key, i) => {
      const c = cell(target.id, key)
      if (!c) return
      lines.push(
        `${pad(i === 0 ? target.label : '', 22)}${pad(SERVERS[key], 25)}${padLeft(fmt.rps(c.rps), 9)}` +
          `${padLeft(fmt.ms(c.p50), 9)}${padLeft(fmt.ms(c.p99), 9)}` +
          `${padLeft(c.cpuUs === undefined ? '—' : String(Math.round(c.cpuUs)), 12)}${padLeft(String(c.failures), 8)}`,
      )
    })
  }

  lines.push('')
  lines.push(
    `${pad('ratios (req/s)', 22)}${padLeft('ours/RR', 10)}${padLeft('ours+log/RR', 13)}${padLeft('ours/node', 11)}${padLeft('ours+log/node', 15)}` +
      `   by CPU/req:${padLeft('ours/RR', 9)}${padLeft('ours+log/RR', 13)}`,
  )
  for (const target of targets) {
    // Bare React Router sends the same page whatever the Accept-Encoding, so the gzip row
    // compares with its identity measurement.
    const rrTarget = target.id
    lines.push(
      `${pad(target.label, 22)}${padLeft(fmt.ratio(ratio(target.id, 'ours', 'reactRouter', rrTarget)), 10)}` +
        `${padLeft(fmt.ratio(ratio(target.id, 'oursLogged', 'reactRouter', rrTarget)), 13)}` +
        `${padLeft(fmt.ratio(ratio(target.id, 'ours', 'nodeHttp')), 11)}` +
        `${padLeft(fmt.ratio(ratio(target.id, 'oursLogged', 'nodeHttp')), 15)}${' '.repeat(14)}` +
        `${padLeft(fmt.ratio(cpuRatio(target.id, 'ours', 'reactRouter', rrTarget)), 9)}` +
        `${padLeft(fmt.ratio(cpuRatio(target.id, 'oursLogged', 'reactRouter', rrTarget)), 13)}`,
    )
  }

  type Verdict = { budget: string; measured: string; pass: boolean }
  const verdicts: Verdict[] = []
  const atLeast = (budget: string, value: number | undefined, min: number) => {
    if (value === undefined) return
    verdicts.push({ budget, measured: `${fmt.ratio(value)} (≥ ${min}x)`, pass: value >= min })
  }
  const vsRR = (target: string, server: ServerKey) => ratio(target, server, 'reactRouter')
  atLeast('stack: trivial route, ours (log off) / bare RR', vsRR('trivial', 'ours'), BUDGET.serverStack)
  atLeast('stack: trivial route, ours (log on) / bare RR', vsRR('trivial', 'oursLogged'), BUDGET.serverStack)
  // Printed beside the budgets, judged by none: the ratio to bare node:http, and the log's cost.
  const notes: { label: string; measured: string }[] = []
  const note = (label: string, value: number | undefined) => {
    if (value !== undefined) notes.push({ label, measured: fmt.ratio(value) })
  }
  for (const server of ['ours', 'oursLogged'] as const) {
    const label = `rpc read: getComments GET (${server === 'ours' ? 'log off' : 'log on'})`
    note(`${label} / bare node:http`, ratio('rpcRead', server, 'nodeHttp'))
    // Steadier than req/s when other work shares the machine.
    note(`${label} / floor, by CPU per request`, cpuRatio('rpcRead', server, 'floor'))
  }
  for (const target of ['healthz', 'rpcRead', 'home'] as const) {
    note(`${target}: ours (log on) / floor`, ratio(target, 'oursLogged', 'floor'))
  }
  note('/: ours (log off) / our build on bare RR', vsRR('home', 'ours'))
  for (const id of ['doc', 'blog', 'pricing', 'changelog'] as const) {
    const label = targets.find((t) => t.id === id)?.label
    atLeast(`public page: ${label}, ours / floor page`, ratio(id, 'ours', 'floor'), BUDGET.contentPage)
  }
  verdicts.push(...input.pages.verdicts)

  lines.push('')
  lines.push('Budgets (docs/product-rules.md §6)')
  for (const verdict of verdicts) {
    lines.push(`  ${verdict.pass ? 'PASS' : 'FAIL'}  ${pad(verdict.budget, 66)} ${verdict.measured}`)
  }
  for (const { label, measured } of notes) lines.push(`  INFO  ${pad(label, 66)} ${measured}`)

  // The step's goals: ours (log off) over the floor, per round, in the same rounds.
  const goals = GOALS.map((goal) => {
    const c = cell(goal.target, 'ours')
    const value = ratio(goal.target, 'ours', 'floor')
    const pass =
      value !== undefined &&
      value >= goal.min &&
      (goal.p99Ms === undefined || (c?.p99 ?? Infinity) < goal.p99Ms)
    return { ...goal, value, rps: c?.rps, p99: c?.p99, floorRps: cell(goal.target, 'floor')?.rps, pass }
  })
  lines.push('')
  lines.push('Goals (ours, log off, over the React Router floor in the same rounds)')
  for (const goal of goals) {
    const wanted = `≥ ${goal.min}x${goal.p99Ms ? `, p99 < ${goal.p99Ms} ms` : ''}`
    lines.push(
      goal.value === undefined
        ? `  ----  ${pad(goal.label, 44)} not measured in this run`
        : `  ${goal.pass ? 'PASS' : 'FAIL'}  ${pad(goal.label, 44)} ${padLeft(fmt.ratio(goal.value), 6)}  p99 ${fmt.ms(goal.p99 ?? 0)} ms  (${wanted})`,
    )
  }
  const { memory } = input
  const mb = (bytes: number | undefined) =>
    bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MB`
  lines.push(
    `Memory (RSS) of ours: ${mb(memory.idle)} idle after start, ${mb(memory.peak)} at the peak under load, ` +
      `${mb(memory.afterLoad)} after it (the floor: ${mb(memory.floorIdle)} idle)`,
  )
  const taskMemory = taskMemoryVerdicts(memory)
  if (taskMemory) {
    const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')
    lines.push(
      `  ${verdict(taskMemory.peak.pass)}  /task load, one process: peak ${mb(memory.taskPeak)} (goal ≤ ${MEMORY_GOAL.peakMb} MB)`,
      `  ${verdict(taskMemory.settled.pass)}  a minute after it: ${mb(memory.taskSettled)}, ` +
        `${(taskMemory.settled.overIdle * 100).toFixed(0)}% over ${mb(memory.idle)} idle (goal within ${MEMORY_GOAL.settledOverIdle * 100}%)`,
    )
  }
  const answer = input.readAnswer
  if (answer) {
    lines.push(
      `  The read: ${answer.comments} comments (${answer.replies} replies, ${answer.reacted} with reactions), ` +
        `signed in; ${fmt.kb(answer.bytes)} sent (${answer.encoding}), ETag ${answer.etag || 'none'}, no If-None-Match`,
    )
  }

  lines.push('')
  lines.push(
    `First-load JS on /: ${fmt.kb(firstLoad.totalGzipBytes)} gzip, ${fmt.kb(firstLoad.totalBytes)} raw, ` +
      `${firstLoad.files.length} files (+ ${fmt.kb(firstLoad.inlineScriptBytes)} gzip inline in the HTML)`,
  )
  for (const file of [...firstLoad.files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    const served = file.served ? `${fmt.kb(file.served.bytes)} (${file.served.encoding})` : '—'
    lines.push(
      `  ${pad(file.path, 44)}${padLeft(fmt.kb(file.gzipBytes), 10)} gzip ${padLeft(fmt.kb(file.bytes), 10)} raw` +
        `   served ${served}, ${file.served?.cacheControl ?? ''}`,
    )
  }
  lines.push(...input.pages.lines)
  const served = firstLoad.files.reduce((sum, file) => sum + (file.served?.bytes ?? 0), 0)
  // compression leaves bodies under its 1 KB threshold alone, rightly: the headers would cost more.
  const uncompressed = firstLoad.files.filter(
    (file) => file.served?.encoding === 'none' && file.bytes >= 1024,
  )
  lines.push(`  served by ours to a browser accepting gzip and br: ${fmt.kb(served)}`)
  if (uncompressed.length > 0) {
    lines.push(`  WARNING: ${uncompressed.length} of them (over 1 KB) were served uncompressed.`)
  }
  lines.push('')
  lines.push(
    `Request log (ours, log on): ${input.logLines.toLocaleString('en-US')} stdout lines for ` +
      `${input.loggedRequests.toLocaleString('en-US')} completed requests`,
  )
  for (const reason of input.skipped) lines.push(`SKIPPED ${reason.split('\n')[0]}`)
  const failures = Object.values(cells).flatMap((row) => Object.values(row).map((c) => c.failures))
  if (failures.some((n) => n > 0)) lines.push('WARNING: some requests failed (see the "failed" column).')
  console.log(lines.join('\n'))

  if (WRITE_DOCS) {
    writeBenchSection('run', runTable({ targets, cell, ratio, goals, memory, load: input.load, firstLoad }))
    writeBenchSection('goals', goalsTable(goals))
    console.log('\ndocs/performance.md and README.md: the bench tables are updated (bench:run, bench:goals).')
  }

  const resultsDir = resolve('tests/bench/results')
  mkdirSync(resultsDir, { recursive: true })
  const resultsFile = join(resultsDir, 'latest.json')
  writeFileSync(
    resultsFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: availableParallelism(),
        settings: {
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_SECONDS,
          rounds: ROUNDS,
          roundSeconds: ROUND_SECONDS,
        },
        servers: SERVERS,
        targets: targets.map(({ id, label, method, path, headers, body }) => ({
          id,
          label,
          method,
          path,
          // The session is a throwaway one, but a file of results is no place for a cookie's value.
          headers: headers.cookie ? { ...headers, cookie: '(the bench session)' } : headers,
          body,
        })),
        loadAverage: input.load,
        skipped: input.skipped,
        results: cells,
        budgets: verdicts,
        goals,
        memory,
        informational: notes,
        rpcRead: input.readAnswer,
        firstLoadJs: firstLoad,
        firstLoadJsByPage: Object.fromEntries(
          input.pages.pages.map(({ path, firstLoad }) => [
            path,
            {
              total: firstLoad.totalGzipBytes,
              framework: firstLoad.frameworkGzipBytes,
              ours: firstLoad.oursGzipBytes,
            },
          ]),
        ),
        requestLog: { stdoutLines: input.logLines, completedRequests: input.loggedRequests },
      },
      null,
      2,
    )}\n`,
  )
  console.log(`\nResults written to ${resultsFile}`)
}

type GoalResult = { label: string; min: number; p99Ms?: number; value?: number; p99?: number; pass: boolean }

/** Each goal with what it wants, what was measured and its verdict. */
function goalRows(goals: GoalResult[]) {
  const rows = ['| goal | wanted | measured | |', '|---|---|---|---|']
  for (const goal of goals) {
    const wanted = `≥ ${goal.min}x${goal.p99Ms ? `, p99 < ${goal.p99Ms} ms` : ''}`
    const measured =
      goal.value === undefined
        ? 'not measured'
        : `${fmt.ratio(goal.value)}${goal.p99Ms ? `, p99 ${fmt.ms(goal.p99 ?? 0)} ms` : ''}`
    rows.push(
      `| ${goal.label} | ${wanted} | ${measured} | ${goal.value === undefined ? '—' : goal.pass ? 'PASS' : 'FAIL'} |`,
    )
  }
  return rows
}

/** The README's table: the goals alone (docs/performance.md has the rest). */
function goalsTable(goals: GoalResult[]) {
  return [
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (the goals are in \`tests/bench/run.ts\`):`,
    '',
    ...goalRows(goals),
  ].join('\n')
}

/**
 * docs/performance.md's table: every target with its req/s and p99 on each server, each goal with
 * its ratio and verdict, and memory, so the figures quoted there are a bench run's.
 */
function runTable(input: {
  targets: Target[]
  cell: (target: string, server: ServerKey) => Cell | undefined
  ratio: (target: string, server: ServerKey, base: ServerKey) => number | undefined
  goals: GoalResult[]
  memory: Memory
  load: { before: number; after: number }
  firstLoad: FirstLoadJs
}) {
  const { cell, ratio, memory } = input
  const mb = (bytes: number | undefined) =>
    bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MB`
  const rows = [
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: node ${process.version}, ` +
      `${availableParallelism()} CPUs, ${CONNECTIONS} connections, load generator on the same machine, median of ` +
      `${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s; load average ${input.load.before.toFixed(1)} before, ` +
      `${input.load.after.toFixed(1)} after. Ratios are per round against the React Router floor (a minimal ` +
      "React Router app on a bare listener: a trivial resource route, or a plain page of the home page's markup) " +
      'measured in the same rounds. CPU time per request still compares the two when other work on the ' +
      'machine makes requests per second swing.',
    '',
    '| target | ours req/s | p99 | floor req/s | ours / floor | CPU µs per request, ours / floor | bare React Router (our build) req/s |',
    '|---|---|---|---|---|---|---|',
  ]
  for (const target of input.targets) {
    const ours = cell(target.id, 'ours')
    if (!ours) continue
    const floor = cell(target.id, 'floor')
    const bare = cell(target.id, 'reactRouter')
    const cpu = (c: Cell | undefined) => (c?.cpuUs === undefined ? '—' : String(Math.round(c.cpuUs)))
    rows.push(
      `| ${target.label.replace(/\|/g, '\\|')} | ${fmt.rps(ours.rps)} | ${fmt.ms(ours.p99)} ms | ` +
        `${floor ? fmt.rps(floor.rps) : '—'} | ${fmt.ratio(ratio(target.id, 'ours', 'floor'))} | ` +
        `${cpu(ours)} / ${cpu(floor)} | ${bare ? fmt.rps(bare.rps) : '—'} |`,
    )
  }
  rows.push('', ...goalRows(input.goals))
  rows.push(
    '',
    `Memory (RSS) of our server: ${mb(memory.idle)} idle after start, ${mb(memory.peak)} at the peak under load, ` +
      `${mb(memory.afterLoad)} after it; the floor ${mb(memory.floorIdle)} idle. Under the \`/task\` load alone: ` +
      `${mb(memory.taskPeak)} at its peak (goal ≤ ${MEMORY_GOAL.peakMb} MB), ${mb(memory.taskSettled)} a minute after ` +
      `it (goal: within ${MEMORY_GOAL.settledOverIdle * 100}% of idle). First-load JavaScript on \`/\`: ` +
      `${fmt.kb(input.firstLoad.totalGzipBytes)} gzip, of which ${fmt.kb(input.firstLoad.oursGzipBytes)} ours ` +
      `(the rest is the framework chunk; the budget allows ours 20 KB).`,
  )
  return rows.join('\n')
}

const WRITE_DOCS = isWritingDocs()
const eventStreams = eventStreamOptions(process.argv.slice(2))
if (!eventStreams.isOnly) await main()
await benchEventStreams(eventStreams)
