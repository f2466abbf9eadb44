/**
 * `npm run bench`, mixed part: a day's load on one small machine. `node server.js` as deployed on
 * `WEB_CONCURRENCY=2` (server/cluster.ts), on the database seed-discussion.ts fills, with
 * 2,000 event streams (`GET /api/events/tasks`) held open by 400 signed-in people, five tabs each,
 * while the same people do what people do, in proportion: open `/task` (25), a task's modal
 * `/task?task=` (10), poll a discussion's comments over RPC with the ETag they were last given
 * (30), open `/dashboard` (5), search (5), post a comment (10), change a task's status (10) and
 * sign in with their password through the form (1, scrypt included). The weights add up to 96
 * and are taken as shares of that. A quarter of the people have a task open and poll its
 * comments, spread over every task; the comments and status changes come from the people of a
 * quarter of the tasks, so three discussions in four stay as they were and their polls are 304s,
 * as most polls of a day are.
 *
 * The load is open-loop: requests leave on a fixed schedule at 25 req/s, 50, 100, 200, 300, …, a
 * few seconds per rate, whatever the answers, and each is timed from when the schedule sent it, so a
 * server that falls behind shows in the latency instead of slowing the load. It stops at the first
 * rate whose p99 reaches 100 ms or where a request fails, and prints the highest rate before it,
 * with each kind's p50 and p99 there, and the fan-out: from sending each status change to each
 * open stream of someone who may see the task reading it. The load generator shares the two
 * cores with the server, as it would with no second machine; each rate's CPU use of both is
 * printed, to tell which resource ran out. Sign-in is 1 request in 96 and costs a deliberate
 * scrypt derivation (app/utils/crypto.server.ts), so its p99 is reported but left out of the
 * rate's p99: with it in, the rate's p99 would be sign-in's own cost at any load.
 *
 *   npx tsx tests/bench/mixed.ts                    (after `npm run build`; or `npm run bench -- --mixed-only`)
 *   npx tsx tests/bench/mixed.ts --write-readme     also write its table into docs/performance.md
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent } from 'node:http'
import type { Socket } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { STATUSES } from '~/domain/constants'
import { freePort } from '../helpers/free-port'
import { isWritingDocs, writeBenchSection } from './doc-sections'
import { openInBatches, openSubscriber, percentile, type StatusChange } from './event-streams'
import {
  clusterCpuTimeMs,
  largestWorkerRss,
  rawRequest,
  runNode,
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from './processes'

const STREAMS = 2000
const RATE_STEP = 100
/**
 * The offered rates, req/s: two low ones first, so a machine busy with other work still shows a
 * rate that held, then every RATE_STEP up to where the stepping stops even if every rate passed,
 * to keep the part within a few minutes.
 */
const RATES = [25, 50, ...Array.from({ length: 20 }, (_, i) => (i + 1) * RATE_STEP)]
const STEP_SECONDS = 4
/** How long a step's last requests may take to come back before they count as failed. */
const DRAIN_MS = 10_000
const GOAL = { rps: 500, p99Ms: 100, fanOutP99Ms: 250 }
/** Requests of each kind, one after another, whose server CPU time is the kind's cost. */
const COST_SAMPLES = 10

const KINDS = {
  task: { label: 'GET /task', weight: 25 },
  modal: { label: 'GET /task?task= (modal)', weight: 10 },
  comments: { label: 'rpc getComments, If-None-Match', weight: 30 },
  dashboard: { label: 'GET /dashboard', weight: 5 },
  search: { label: 'GET /search?q=', weight: 5 },
  comment: { label: 'rpc addComment', weight: 10 },
  status: { label: 'rpc task.setStatus', weight: 10 },
  signIn: { label: 'POST /login (password)', weight: 1 },
} as const
type Kind = keyof typeof KINDS

/** What seed-discussion.ts prints, as far as this part uses it. */
type Seeded = {
  writers: { userId: string; email: string; taskId: string; cookie: string; csrf: string }[]
  password: string
  visitors: { cookie: string; csrf: string }[]
}

/** A request to send, the answers that count as right, and what to do with the answer. */
type Planned = {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  expect: number[]
  answered?: (status: number, headers: Record<string, string>) => void
}

type Step = {
  rate: number
  latencies: Record<Kind, number[]>
  failures: Record<Kind, number>
  /** Requests still unanswered DRAIN_MS after the step's last one was sent. */
  unanswered: number
  firstFailure?: string
  notModified: number
  fanOut: number[]
  /** CPU used per second of the step, in cores: the server (primary and workers), this process. */
  cpu: { server: number; generator: number }
  /** The largest worker's RSS during the step. */
  peakWorkerRss: number
}

const SEARCH_WORDS = ['feedback', 'numbers', 'Friday', 'shipping', 'release']
/** The share of the people who write (the seed lists them by task, so they share a quarter of the tasks). */
const WRITING_SHARE = 0.25
/** One person in this many has a task open and polls its comments; the seed's order spreads them over every task. */
const POLLING_EVERY = 4

/** The kinds in their shares, in an order that mixes them (a fixed shuffle, the same every run). */
function mixSequence(): Kind[] {
  const sequence = (Object.keys(KINDS) as Kind[]).flatMap((kind) =>
    Array.from({ length: KINDS[kind].weight }, () => kind),
  )
  let state = 20261203
  for (let i = sequence.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    const j = state % (i + 1)
    ;[sequence[i], sequence[j]] = [sequence[j] as Kind, sequence[i] as Kind]
  }
  return sequence
}

/**
 * What each kind sends for the n-th request, as the n-th person of the seed: their cookie, their
 * task, the ETag their last read got, the next status in turn for their task; sign-ins go through
 * the people in turn, each from an address of its own (the app trusts Fly-Client-IP here, as
 * behind Fly's proxy), so the per-address limit sees many visitors, not one load generator.
 */
function planner(seeded: Seeded, onStatusSent: (change: StatusChange) => void) {
  const etags = new Map<number, string>()
  const statusTurns = new Map<string, number>()
  let signIns = 0
  const rpcRead = (taskId: string) =>
    `/api/rpc/comments/getComments?data=${encodeURIComponent(JSON.stringify({ json: { taskId } }))}`
  const page = (path: string, cookie: string): Planned => ({
    method: 'GET',
    path,
    headers: { cookie, accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    expect: [200],
  })
  const rpcWrite = (person: Seeded['writers'][number], path: string, input: unknown): Planned => ({
    method: 'POST',
    path: `/api/rpc/${path}`,
    headers: { cookie: person.cookie, 'x-csrf-token': person.csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ json: input }),
    expect: [200],
  })
  const people = seeded.writers.length
  const writing = Math.max(1, Math.floor(people * WRITING_SHARE))
  const polling = Math.max(1, Math.floor(people / POLLING_EVERY))
  const indexOf = (kind: Kind, n: number) => {
    if (kind === 'comment' || kind === 'status') return n % writing
    if (kind === 'comments') return ((n % polling) * POLLING_EVERY + 1) % people
    return n % people
  }
  return (kind: Kind, n: number): Planned => {
    const index = indexOf(kind, n)
    const person = seeded.writers[index] as Seeded['writers'][number]
    switch (kind) {
      case 'task':
        return page('/task', person.cookie)
      case 'modal':
        return page(`/task?task=${person.taskId}`, person.cookie)
      case 'dashboard':
        return page('/dashboard', person.cookie)
      case 'search':
        return page(`/search?q=${SEARCH_WORDS[n % SEARCH_WORDS.length]}`, person.cookie)
      case 'comments': {
        const etag = etags.get(index)
        return {
          method: 'GET',
          path: rpcRead(person.taskId),
          headers: { cookie: person.cookie, ...(etag ? { 'if-none-match': etag } : {}) },
          expect: [200, 304],
          answered: (status, headers) => {
            if (status === 200 && headers.etag) etags.set(index, headers.etag)
          },
        }
      }
      case 'comment':
        return rpcWrite(person, 'comments/addComment', {
          taskId: person.taskId,
          content: 'Read it through: the numbers look right to me, and Friday works for shipping.',
          mentions: [],
        })
      case 'status': {
        const turn = (statusTurns.get(person.taskId) ?? 0) + 1
        statusTurns.set(person.taskId, turn)
        const change = {
          taskId: person.taskId,
          userId: person.userId,
          newStatus: STATUSES[turn % STATUSES.length] as string,
        }
        onStatusSent(change)
        return rpcWrite(person, 'task/setStatus', { taskId: change.taskId, status: change.newStatus })
      }
      case 'signIn': {
        signIns += 1
        const visitor = seeded.visitors[signIns % seeded.visitors.length] as Seeded['visitors'][number]
        const who = seeded.writers[signIns % seeded.writers.length] as Seeded['writers'][number]
        return {
          method: 'POST',
          path: '/login',
          headers: {
            cookie: visitor.cookie,
            accept: 'text/html',
            'content-type': 'application/x-www-form-urlencoded',
            'fly-client-ip': `10.${(signIns >> 16) & 255}.${(signIns >> 8) & 255}.${signIns & 255}`,
          },
          body: new URLSearchParams({
            csrf: visitor.csrf,
            email: who.email,
            password: seeded.password,
            redirect: '',
          }).toString(),
          expect: [302],
        }
      }
    }
  }
}

/**
 * When each status change was sent, by task, person and new status, to time its arrival on the
 * streams. The same person sets the same task to the same status again only seconds later, so the
 * latest such send before an arrival is the one that caused it.
 */
function changeClock() {
  const sent = new Map<string, number[]>()
  const key = (change: StatusChange) => `${change.taskId} ${change.userId} ${change.newStatus}`
  return {
    sent(change: StatusChange) {
      const times = sent.get(key(change)) ?? []
      times.push(performance.now())
      sent.set(key(change), times)
    },
    /** How long ago the change that arrived at `at` was sent; undefined for one this run never sent. */
    latency(change: StatusChange, at: number) {
      const times = sent.get(key(change)) ?? []
      for (let i = times.length - 1; i >= 0; i--) {
        const time = times[i] as number
        if (time <= at) return at - time
      }
      return undefined
    },
  }
}

/** Samples the workers' RSS every 250 ms into `into.peak` (the largest seen) until called to stop. */
function samplePeakRss(server: ServerProcess, into: { peak: number }) {
  const timer = setInterval(() => {
    into.peak = Math.max(into.peak, largestWorkerRss(server.child))
  }, 250)
  return () => clearInterval(timer)
}

/** Sends `rate` requests a second for STEP_SECONDS on the schedule, then waits for the last answers. */
async function runStep(input: {
  rate: number
  server: ServerProcess
  agent: Agent
  plan: (kind: Kind, n: number) => Planned
  sequence: Kind[]
  fanOut: { current: number[] | undefined }
  /** Requests sent so far, over every step: the next one's place in the mix and among the people. */
  sent: { count: number }
}): Promise<Step> {
  const { rate, server, agent, plan, sequence, sent } = input
  const kinds = Object.keys(KINDS) as Kind[]
  const step: Step = {
    rate,
    latencies: Object.fromEntries(kinds.map((kind) => [kind, []])) as unknown as Step['latencies'],
    failures: Object.fromEntries(kinds.map((kind) => [kind, 0])) as unknown as Step['failures'],
    unanswered: 0,
    notModified: 0,
    fanOut: [],
    cpu: { server: 0, generator: 0 },
    peakWorkerRss: 0,
  }
  input.fanOut.current = step.fanOut
  const rss = { peak: 0 }
  const stopSampling = samplePeakRss(server, rss)
  const cpuBefore = { server: clusterCpuTimeMs(server.child), generator: process.cpuUsage() }
  const startedAt = performance.now()
  const total = rate * STEP_SECONDS
  const interval = 1000 / rate
  const inFlight = new Set<Promise<void>>()
  const fail = (kind: Kind, why: string) => {
    step.failures[kind] += 1
    step.firstFailure ??= `${KINDS[kind].label}: ${why}`
  }
  const send = (scheduledAt: number) => {
    const n = sent.count++
    const kind = sequence[n % sequence.length] as Kind
    const planned = plan(kind, n)
    const request = rawRequest(server.port, { ...planned, agent }).then(
      (answer) => {
        if (!planned.expect.includes(answer.status)) {
          fail(kind, `${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`)
          return
        }
        planned.answered?.(answer.status, answer.headers)
        if (answer.status === 304) step.notModified += 1
        step.latencies[kind].push(performance.now() - scheduledAt)
      },
      (error: unknown) => fail(kind, error instanceof Error ? error.message : String(error)),
    )
    inFlight.add(request)
    void request.finally(() => inFlight.delete(request))
  }
  await new Promise<void>((done) => {
    let n = 0
    const tick = () => {
      const now = performance.now()
      for (; n < total && startedAt + n * interval <= now; n++) send(startedAt + n * interval)
      if (n < total) setTimeout(tick, 1)
      else done()
    }
    tick()
  })
  const elapsedSeconds = (performance.now() - startedAt) / 1000
  const drained = Promise.all(inFlight).then(() => true)
  const isDrained = await Promise.race([drained, sleep(DRAIN_MS).then(() => false)])
  if (!isDrained) {
    step.unanswered = inFlight.size
    step.firstFailure ??= `${inFlight.size} requests unanswered ${DRAIN_MS / 1000} s after the step`
  }
  // Events of this step's last changes may still be on their way: give them a moment.
  await sleep(300)
  input.fanOut.current = undefined
  stopSampling()
  const generator = process.cpuUsage(cpuBefore.generator)
  step.cpu = {
    server: (clusterCpuTimeMs(server.child) - cpuBefore.server) / 1000 / elapsedSeconds,
    generator: (generator.user + generator.system) / 1_000_000 / elapsedSeconds,
  }
  step.peakWorkerRss = rss.peak
  for (const kind of kinds) step.latencies[kind].sort((a, b) => a - b)
  step.fanOut.sort((a, b) => a - b)
  return step
}

/**
 * The server's CPU time per request of each kind, from COST_SAMPLES sent one after another on the
 * idle server (after as many unmeasured, for the JIT): what the mix's shares weigh, so the rate's
 * ceiling can be told from what each kind costs rather than guessed from the latencies.
 */
async function measureCosts(server: ServerProcess, plan: (kind: Kind, n: number) => Planned) {
  const costs = {} as Record<Kind, number>
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const samples = kind === 'signIn' ? 3 : COST_SAMPLES
    for (let n = 0; n < samples; n++) await rawRequest(server.port, plan(kind, n))
    const before = clusterCpuTimeMs(server.child)
    for (let n = samples; n < 2 * samples; n++) await rawRequest(server.port, plan(kind, n))
    costs[kind] = (clusterCpuTimeMs(server.child) - before) / samples
  }
  return costs
}

/** The mix's average server CPU time per request, in ms. */
const weightedCost = (costs: Record<Kind, number>) => {
  const kinds = Object.keys(KINDS) as Kind[]
  const weights = kinds.reduce((sum, kind) => sum + KINDS[kind].weight, 0)
  return kinds.reduce((sum, kind) => sum + costs[kind] * KINDS[kind].weight, 0) / weights
}

/** The latencies the rate is judged by: every kind but sign-in (see the top of the file). */
function judged(step: Step) {
  return (Object.keys(KINDS) as Kind[])
    .filter((kind) => kind !== 'signIn')
    .flatMap((kind) => step.latencies[kind])
    .sort((a, b) => a - b)
}
const failuresOf = (step: Step) => Object.values(step.failures).reduce((sum, n) => sum + n, step.unanswered)
const isSteady = (step: Step) => failuresOf(step) === 0 && percentile(judged(step), 0.99) < GOAL.p99Ms

async function main() {
  const root = process.cwd()
  const work = mkdtempSync(join(tmpdir(), 'threadwork-bench-mixed-'))
  let server: ServerProcess | undefined
  const sockets: Socket[] = []
  process.once('exit', () => server?.child.kill('SIGKILL'))
  try {
    const port = await freePort()
    const file = join(work, 'app.db')
    const env = serverEnv(port, `file:${file}`, {
      BASE_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      WEB_CONCURRENCY: '2',
      TRUST_PROXY: 'true',
      SMTP_URL: '',
    })
    console.log('\nMixed load: seeding the discussion and its 400 people…')
    const seededLine = await runNode(['--import', 'tsx', 'tests/bench/seed-discussion.ts', file], env, root)
    const seeded = JSON.parse(seededLine.trim().split('\n').at(-1) ?? '') as Seeded
    server = await startServer({ name: 'ours (2 workers)', args: ['server.js'], port, env, cwd: root })
    const running = server

    const clock = changeClock()
    const fanOut: { current: number[] | undefined } = { current: undefined }
    const plan = planner(seeded, (change) => clock.sent(change))
    const agent = new Agent({ keepAlive: true, maxSockets: 512 })
    const sent = { count: 0 }
    // Every kind answers as it should before anything is timed.
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const planned = plan(kind, 0)
      const answer = await rawRequest(port, planned)
      if (!planned.expect.includes(answer.status))
        throw new Error(
          `${KINDS[kind].label} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}\n${running.stderr()}`,
        )
    }

    const costs = await measureCosts(running, plan)

    console.log(`Mixed load: opening ${STREAMS.toLocaleString('en-US')} event streams…`)
    await openInBatches(
      STREAMS,
      (i) =>
        openSubscriber(
          port,
          '/api/events/tasks',
          seeded.writers[i % seeded.writers.length]?.cookie,
          (change, at) => {
            const latency = fanOut.current && clock.latency(change, at)
            if (latency !== undefined) fanOut.current?.push(latency)
          },
        ),
      sockets,
    )
    const sequence = mixSequence()
    // A short warm-up, unreported: both workers' JIT and caches, as after a deploy's first minute.
    await runStep({ rate: RATES[0] as number, server: running, agent, plan, sequence, fanOut, sent })
    const loadBefore = loadavg()[0] ?? 0
    const steps: Step[] = []
    console.log(
      `Mixed load: ${STEP_SECONDS} s per rate, ${RATES.slice(0, 4).join(', ')}, … req/s, until p99 reaches ${GOAL.p99Ms} ms or a request fails`,
    )
    for (const rate of RATES) {
      const step = await runStep({ rate, server: running, agent, plan, sequence, fanOut, sent })
      steps.push(step)
      console.log(`  ${stepLine(step)}`)
      if (!isSteady(step)) break
    }
    report(steps, costs, loadBefore)
    agent.destroy()
  } finally {
    for (const socket of sockets) socket.destroy()
    if (server) await stopServer(server)
    rmSync(work, { recursive: true, force: true })
  }
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—')
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

function stepLine(step: Step) {
  const all = judged(step)
  const sent = Object.values(step.latencies).reduce((sum, list) => sum + list.length, 0)
  return (
    `${String(step.rate).padStart(5)} req/s  p50 ${ms(percentile(all, 0.5)).padStart(6)} ms  p99 ${ms(percentile(all, 0.99)).padStart(6)} ms  ` +
    `${String(sent).padStart(5)} answered (${step.notModified} 304s), ${failuresOf(step)} failed  ` +
    `fan-out p99 ${ms(percentile(step.fanOut, 0.99))} ms over ${step.fanOut.length} deliveries  ` +
    `CPU: server ${step.cpu.server.toFixed(2)}, load generator ${step.cpu.generator.toFixed(2)} cores  ` +
    `largest worker ${mb(step.peakWorkerRss)}` +
    (step.firstFailure ? `\n        first failure: ${step.firstFailure.split('\n')[0]}` : '')
  )
}

function report(steps: Step[], costs: Record<Kind, number>, loadBefore: number) {
  const steady = steps.filter(isSteady).at(-1)
  const limit = steps.find((step) => !isSteady(step))
  const cores = availableParallelism()
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  const lines: string[] = ['']
  lines.push(
    `### Mixed load: ${STREAMS.toLocaleString('en-US')} streams open, WEB_CONCURRENCY=2`,
    '',
    `Measured by \`npm run bench\` (tests/bench/mixed.ts) on ${new Date().toISOString().slice(0, 10)}: open-loop ` +
      `load at ${RATES.slice(0, 4).join(', ')}, … req/s for ${STEP_SECONDS} s each, 400 signed-in people, ${cores} cores shared with the ` +
      `load generator, load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after.`,
    '',
  )
  // Per kind and fan-out at the steady rate; when even the first rate did not hold, at that rate.
  const shown = steady ?? limit
  const fanOutP99 = shown ? percentile(shown.fanOut, 0.99) : Number.NaN
  lines.push(
    `- highest steady rate (p99 < ${GOAL.p99Ms} ms, sign-in aside, nothing failed): ` +
      `**${steady ? `${steady.rate} req/s` : `below ${RATES[0]} req/s`}** — ${verdict((steady?.rate ?? 0) >= GOAL.rps)} (goal ≥ ${GOAL.rps} req/s)`,
    `- fan-out p99 at ${shown === steady ? 'that rate' : `${shown?.rate} req/s`}: **${ms(fanOutP99)} ms** over ` +
      `${shown?.fanOut.length ?? 0} deliveries — ${verdict(steady !== undefined && fanOutP99 < GOAL.fanOutP99Ms)} (goal < ${GOAL.fanOutP99Ms} ms)`,
  )
  if (limit) {
    lines.push(
      `- the next rate, ${limit.rate} req/s: p99 ${ms(percentile(judged(limit), 0.99))} ms, ${failuresOf(limit)} failed; ` +
        `CPU there: server ${limit.cpu.server.toFixed(2)} + load generator ${limit.cpu.generator.toFixed(2)} of ${cores} cores`,
    )
  } else lines.push(`- every rate up to ${RATES.at(-1)} req/s held (the stepping stops there)`)
  const average = weightedCost(costs)
  lines.push(
    `- server CPU per request of the mix, each kind measured alone on the idle server: ${ms(average)} ms, ` +
      `so ${cores} cores of its own would serve at most about ${Math.round((cores * 1000) / average)} req/s`,
  )
  if (shown) {
    const weights = Object.values(KINDS).reduce((sum, kind) => sum + kind.weight, 0)
    lines.push(
      '',
      `| at ${shown.rate} req/s${shown === steady ? '' : ' (did not hold)'} | share | answered | p50 | p99 | server CPU per request | share of the mix's CPU |`,
      '|---|---|---|---|---|---|---|',
      ...(Object.keys(KINDS) as Kind[]).map((kind) => {
        const list = shown.latencies[kind]
        const note = kind === 'comments' ? ` (${shown.notModified} of them 304)` : ''
        const cpuShare = (costs[kind] * KINDS[kind].weight) / weights / average
        return (
          `| ${KINDS[kind].label.replace(/\|/g, '\\|')} | ${KINDS[kind].weight} | ${list.length}${note} | ` +
          `${ms(percentile(list, 0.5))} ms | ${ms(percentile(list, 0.99))} ms | ${ms(costs[kind])} ms | ${(cpuShare * 100).toFixed(0)}% |`
        )
      }),
      '',
      `CPU at ${shown.rate} req/s: server ${shown.cpu.server.toFixed(2)} cores, load generator ` +
        `${shown.cpu.generator.toFixed(2)}; the largest worker's RSS ${mb(shown.peakWorkerRss)}.`,
    )
  }
  const table = lines.join('\n')
  console.log(table)
  if (isWritingDocs()) writeBenchSection('mixed', table)
  const resultsDir = resolve('tests/bench/results')
  mkdirSync(resultsDir, { recursive: true })
  const resultsFile = join(resultsDir, 'mixed.json')
  const summary = (step: Step) => ({
    rate: step.rate,
    failures: step.failures,
    unanswered: step.unanswered,
    firstFailure: step.firstFailure,
    notModified: step.notModified,
    cpu: step.cpu,
    peakWorkerRss: step.peakWorkerRss,
    p99Ms: percentile(judged(step), 0.99),
    fanOutP99Ms: percentile(step.fanOut, 0.99),
    kinds: Object.fromEntries(
      (Object.keys(KINDS) as Kind[]).map((kind) => [
        kind,
        {
          answered: step.latencies[kind].length,
          p50: percentile(step.latencies[kind], 0.5),
          p99: percentile(step.latencies[kind], 0.99),
        },
      ]),
    ),
  })
  writeFileSync(
    resultsFile,
    `${JSON.stringify({ date: new Date().toISOString(), cores, streams: STREAMS, costs, steps: steps.map(summary) }, null, 2)}\n`,
  )
  console.log(`\nResults written to ${resultsFile}`)
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

await main()
