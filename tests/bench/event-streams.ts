/**
 * The event-stream part of `npm run bench` (docs/product-rules.md §6: 10,000 idle subscribers on
 * one instance, an event reaching all of them within 250 ms, under 30 KB each). One `node
 * server.js` on a fresh database; N subscribers to `GET /api/events/tasks` on raw `net` sockets
 * (an HTTP client library would cost the load generator more than the server); then a burst of
 * status changes through `/api/rpc`, each one event every subscriber may see. It reports the
 * server's memory per subscriber (RSS growth over N) and the fan-out latency, from sending each
 * change to each subscriber reading its event, p50 and p99 over every subscriber and event.
 *
 *   npm run bench                                     the whole bench, SSE with 2,000 subscribers
 *   npm run bench -- --sse-only --subscribers 10000   only this part, with 10,000
 *   npm run bench -- --sse-paths                      also the two ways to serve a stream, bare
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '../helpers/free-port'
import { type ServerProcess, serverEnv, startServer, stopServer } from './processes'

export type EventStreamBenchOptions = { subscribers: number; isOnly: boolean; isComparingPaths: boolean }

const GOAL = { p99Ms: 250, kbPerSubscriber: 30 }
const BURST_EVENTS = 20
/** Connections opened at once: enough to be quick, few enough not to flood the accept queue. */
const CONNECTING_AT_ONCE = 200
const EVENT_MARK = 'event: task-status-changed'

export function eventStreamOptions(argv: string[]): EventStreamBenchOptions {
  const at = argv.indexOf('--subscribers')
  const subscribers = at === -1 ? 2000 : Number(argv[at + 1])
  if (!Number.isInteger(subscribers) || subscribers < 1) throw new Error('--subscribers needs a whole number')
  const isComparingPaths = argv.includes('--sse-paths')
  return { subscribers, isOnly: argv.includes('--sse-only') || isComparingPaths, isComparingPaths }
}

export async function benchEventStreams(options: EventStreamBenchOptions) {
  if (options.isComparingPaths) {
    for (const path of ['route', 'direct'] as const) await benchPrototype(path, options.subscribers)
  }
  return benchOurServer(options.subscribers)
}

/** Our server as deployed, the writes going through `/api/rpc` as a browser's would. */
async function benchOurServer(subscribers: number) {
  const work = mkdtempSync(join(tmpdir(), 'threadwork-bench-sse-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  let server: ServerProcess | undefined
  try {
    console.log(`\nEvent streams: starting a server for ${subscribers.toLocaleString('en-US')} subscribers…`)
    server = await startServer({
      name: 'ours (event streams)',
      args: ['server.js'],
      port,
      cwd: process.cwd(),
      env: serverEnv(port, `file:${join(work, 'app.db')}`, { BASE_URL: origin, SMTP_URL: '' }),
    })
    const person = await signUp(origin)
    const task: { id: string } = await rpc(origin, person, 'task/create', { text: 'Benchmarked task' })
    const statuses = ['In Progress', 'Completed', 'Not Started'] as const
    let n = 0
    const result = await measureFanOut({
      label: 'ours: GET /api/events/tasks, changes through /api/rpc',
      pid: server.child.pid as number,
      subscribers,
      subscribe: () => openSubscriber(port, '/api/events/tasks', person.cookie),
      emit: () => rpc(origin, person, 'task/setStatus', { taskId: task.id, status: statuses[n++ % 3] }),
    })
    const resultsDir = resolve('tests/bench/results')
    mkdirSync(resultsDir, { recursive: true })
    const file = join(resultsDir, 'event-streams.json')
    const record = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: availableParallelism(),
      ...result,
    }
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`)
    console.log(`Results written to ${file}`)
    return result
  } finally {
    if (server) await stopServer(server)
    rmSync(work, { recursive: true, force: true })
  }
}

/** One of the two ways to serve a stream, bare (tests/bench/servers/sse-paths.ts). */
async function benchPrototype(path: 'route' | 'direct', subscribers: number) {
  const port = await freePort()
  const server = await startServer({
    name: `sse-paths ${path}`,
    args: ['--import', 'tsx', 'tests/bench/servers/sse-paths.ts', path],
    port,
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port) },
  })
  try {
    await measureFanOut({
      label:
        path === 'route'
          ? 'prototype: Request + ReadableStream (the route path)'
          : 'prototype: node:http response',
      pid: server.child.pid as number,
      subscribers,
      subscribe: () => openSubscriber(port, '/stream'),
      emit: async () => {
        const response = await fetch(`http://127.0.0.1:${port}/emit`, { method: 'POST' })
        await response.arrayBuffer()
      },
    })
  } finally {
    await stopServer(server)
  }
}

type Subscriber = { socket: Socket; arrivals: number[] }

/** A status change as a stream carries it: which task, who changed it, and the status it moved to. */
export type StatusChange = { taskId: string; userId: string; newStatus: string }

/**
 * Connects `subscribers` streams, measures the server's memory growth, then sends a burst of
 * events (each as soon as the previous write is answered) and times every subscriber's arrival.
 */
async function measureFanOut(options: {
  label: string
  pid: number
  subscribers: number
  subscribe: () => Promise<Subscriber>
  emit: () => Promise<unknown>
}) {
  const sockets: Socket[] = []
  try {
    // Warm the stream path, then measure from a settled baseline.
    ;(await options.subscribe()).socket.destroy()
    await sleep(500)
    const rssBefore = rssKb(options.pid)
    const connectStarted = performance.now()
    const all = await openInBatches(options.subscribers, options.subscribe, sockets)
    const connectMs = performance.now() - connectStarted
    await sleep(1000)
    const rssAfter = rssKb(options.pid)

    const sentAt: number[] = []
    for (let n = 0; n < BURST_EVENTS; n++) {
      sentAt.push(performance.now())
      await options.emit()
    }
    const deadline = Date.now() + 30_000
    while (all.some(({ arrivals }) => arrivals.length < BURST_EVENTS) && Date.now() < deadline)
      await sleep(20)

    const latencies: number[] = []
    let missing = 0
    for (const { arrivals } of all) {
      for (let n = 0; n < BURST_EVENTS; n++) {
        const at = arrivals[n]
        if (at === undefined) missing += 1
        else latencies.push(at - (sentAt[n] as number))
      }
    }
    latencies.sort((a, b) => a - b)
    const result = {
      label: options.label,
      subscribers: options.subscribers,
      events: BURST_EVENTS,
      connectSeconds: connectMs / 1000,
      rssBeforeMb: rssBefore / 1024,
      rssAfterMb: rssAfter / 1024,
      kbPerSubscriber: (rssAfter - rssBefore) / options.subscribers,
      latencyMs: {
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: latencies.at(-1) ?? NaN,
      },
      missing,
      // Other work on the machine shows in the latency: the load it carried, for reading the figures.
      loadAverage: loadavg()[0] ?? Number.NaN,
    }
    report(result)
    return result
  } finally {
    for (const socket of sockets) socket.destroy()
  }
}

/**
 * Opens `count` subscribers, CONNECTING_AT_ONCE at a time; each socket goes into `sockets` as it
 * opens, so the caller can close them all even when a later one fails.
 */
export async function openInBatches(
  count: number,
  subscribe: (index: number) => Promise<Subscriber>,
  sockets: Socket[],
): Promise<Subscriber[]> {
  const all: Subscriber[] = []
  for (let first = 0; first < count; first += CONNECTING_AT_ONCE) {
    const size = Math.min(CONNECTING_AT_ONCE, count - first)
    const batch = await Promise.all(Array.from({ length: size }, (_, i) => subscribe(first + i)))
    all.push(...batch)
    sockets.push(...batch.map((subscriber) => subscriber.socket))
  }
  return all
}

function report(result: {
  label: string
  subscribers: number
  events: number
  connectSeconds: number
  rssBeforeMb: number
  rssAfterMb: number
  kbPerSubscriber: number
  latencyMs: { p50: number; p99: number; max: number }
  missing: number
  loadAverage: number
}) {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  console.log(
    [
      `Event streams, ${result.label}: ${result.subscribers.toLocaleString('en-US')} idle subscribers ` +
        `(connected in ${result.connectSeconds.toFixed(1)} s), a burst of ${result.events} events`,
      `  memory   RSS ${result.rssBeforeMb.toFixed(0)} MB → ${result.rssAfterMb.toFixed(0)} MB: ` +
        `${result.kbPerSubscriber.toFixed(1)} KB per subscriber   ` +
        `${verdict(result.kbPerSubscriber < GOAL.kbPerSubscriber)} (goal < ${GOAL.kbPerSubscriber} KB)`,
      `  fan-out  p50 ${result.latencyMs.p50.toFixed(0)} ms, p99 ${result.latencyMs.p99.toFixed(0)} ms, ` +
        `max ${result.latencyMs.max.toFixed(0)} ms   ${verdict(result.latencyMs.p99 < GOAL.p99Ms)} ` +
        `(goal p99 < ${GOAL.p99Ms} ms)`,
      result.missing > 0
        ? `  WARNING: ${result.missing} deliveries never arrived`
        : '  every subscriber got every event',
      `  load average ${result.loadAverage.toFixed(1)} on ${availableParallelism()} cores (the load generator shares them)`,
    ].join('\n'),
  )
}

type Person = { cookie: string; csrf: string }

/** Signs up one person through /api/auth, as the better-auth client would. */
async function signUp(origin: string): Promise<Person> {
  const anonymous = await fetch(`${origin}/api/csrf`)
  const anonymousCookie = cookiesOf(anonymous.headers)
  const { csrfToken } = (await anonymous.json()) as { csrfToken: string }
  const signedUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: anonymousCookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify({
      name: 'Bench',
      email: 'bench@example.test',
      password: 'correct horse battery staple',
    }),
  })
  if (!signedUp.ok) throw new Error(`sign-up failed: ${signedUp.status} ${await signedUp.text()}`)
  const cookie = cookiesOf(signedUp.headers)
  const token = await fetch(`${origin}/api/csrf`, { headers: { Cookie: cookie } })
  return { cookie, csrf: ((await token.json()) as { csrfToken: string }).csrfToken }
}

function cookiesOf(headers: Headers) {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

async function rpc(origin: string, person: Person, path: string, input: unknown) {
  const response = await fetch(`${origin}/api/rpc/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: person.cookie, 'x-csrf-token': person.csrf },
    body: JSON.stringify({ json: input }),
  })
  if (!response.ok) throw new Error(`${path} failed: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { json: never }).json
}

/**
 * One subscriber on a raw socket: ready once the stream says so; then the time each status
 * change arrives is recorded, and handed with the change to `onStatusChange` when given (the
 * mixed load tells its changes apart by task and status).
 */
export function openSubscriber(
  port: number,
  path: string,
  cookie?: string,
  onStatusChange?: (change: StatusChange, at: number) => void,
): Promise<Subscriber> {
  return new Promise((resolveReady, reject) => {
    const socket = connect(port, '127.0.0.1')
    const subscriber: Subscriber = { socket, arrivals: [] }
    let isReady = false
    let head = ''
    /** The end of what arrived that may hold the start of a frame whose rest is still to come. */
    let unread = ''
    socket.setEncoding('utf8')
    socket.once('error', reject)
    socket.on('data', (chunk: string) => {
      const at = performance.now()
      if (!isReady) {
        head += chunk
        if (!head.includes('event: ready')) return
        if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(head.split('\r\n')[0]))
        isReady = true
        chunk = head.slice(head.indexOf('event: ready'))
        head = ''
        resolveReady(subscriber)
      }
      for (let i = chunk.indexOf(EVENT_MARK); i !== -1; i = chunk.indexOf(EVENT_MARK, i + 1)) {
        subscriber.arrivals.push(at)
      }
      if (onStatusChange) unread = readStatusChanges(unread + chunk, at, onStatusChange)
    })
    const cookieLine = cookie ? `Cookie: ${cookie}\r\n` : ''
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n${cookieLine}\r\n`,
    )
  })
}

const STATUS_FRAME = new RegExp(`${EVENT_MARK}\\ndata: (\\{[^\\n]*\\})\\n\\n`, 'g')

/**
 * Hands on every whole status-change frame in `text`; returns the start of a frame still cut off
 * (from its last `event:` line, or the last few characters, which may hold the start of one).
 */
function readStatusChanges(
  text: string,
  at: number,
  onStatusChange: (change: StatusChange, at: number) => void,
) {
  let end = 0
  for (const match of text.matchAll(STATUS_FRAME)) {
    onStatusChange(JSON.parse(match[1] as string) as StatusChange, at)
    end = (match.index ?? 0) + match[0].length
  }
  const rest = text.slice(end)
  const cut = rest.lastIndexOf('event: ')
  return cut === -1 ? rest.slice(-32) : rest.slice(cut)
}

function rssKb(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
}

/** The value at fraction `p` (0.99 for p99) of an ascending list. */
export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
