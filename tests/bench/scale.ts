/**
 * `npm run bench`, scale part: the same mixed load against the built server as one process
 * (`WEB_CONCURRENCY=1`) and as a cluster of two workers (`WEB_CONCURRENCY=2`, server/cluster.ts),
 * each on its own copy of one seeded database file. Four requests in five read a 50-comment
 * discussion (`comments.getComments`, signed in); the fifth creates a task (`task.create`, a write
 * transaction with its event). Rounds alternate between the two servers, rotating the order, so
 * machine noise lands on both alike; medians are reported, and a ratio is the median of per-round
 * ratios. The load generator is a process on the same cores: on a 2-core machine it takes a share
 * of what the workers could use, so the ratio understates what a machine of its own would show.
 *
 *   tsx tests/bench/scale.ts    (after `npm run build`; results in tests/bench/results/scale.json)
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers/free-port'
import { isWritingDocs, writeBenchSection } from './doc-sections'
import { runNode, type ServerProcess, startServer, stopServer } from './processes'

const CONNECTIONS = 16
const ROUND_SECONDS = 5
const ROUNDS = 3
/** One request in this many is a write. */
const WRITE_EVERY = 5

type Discussion = { taskId: string; cookie: string }
type Kind = 'read' | 'write'
type Round = Record<Kind, { rps: number; p99: number; errors: number }>

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN
}

function send(
  agent: Agent,
  port: number,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, agent, ...options }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** CONNECTIONS loops for ROUND_SECONDS, each sending reads and, every WRITE_EVERY-th, a write. */
async function loadRound(port: number, discussion: Discussion, csrfToken: string): Promise<Round> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const read = {
    method: 'GET',
    path: `/api/rpc/comments/getComments?data=${encodeURIComponent(JSON.stringify({ json: { taskId: discussion.taskId } }))}`,
    headers: { Cookie: discussion.cookie },
  }
  const latencies: Record<Kind, number[]> = { read: [], write: [] }
  const errors: Record<Kind, number> = { read: 0, write: 0 }
  const ends = Date.now() + ROUND_SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, connection) => {
      for (let n = connection; Date.now() < ends; n++) {
        const kind: Kind = n % WRITE_EVERY === 0 ? 'write' : 'read'
        const started = performance.now()
        const response = await send(
          agent,
          port,
          kind === 'read'
            ? read
            : {
                method: 'POST',
                path: '/api/rpc/task/create',
                headers: {
                  Cookie: discussion.cookie,
                  'x-csrf-token': csrfToken,
                  'Content-Type': 'application/json',
                },
                body: JSON.stringify({ json: { text: `Scale bench ${connection}.${n}` } }),
              },
        ).catch(() => ({ status: 0, body: '' }))
        if (response.status === 200) latencies[kind].push(performance.now() - started)
        else errors[kind] += 1
      }
    }),
  )
  agent.destroy()
  const summary = (kind: Kind) => ({
    rps: latencies[kind].length / ROUND_SECONDS,
    p99: percentile(latencies[kind], 99),
    errors: errors[kind],
  })
  return { read: summary('read'), write: summary('write') }
}

async function main() {
  const root = process.cwd()
  const work = mkdtempSync(join(tmpdir(), 'threadwork-bench-scale-'))
  const servers: ServerProcess[] = []
  process.once('exit', () => {
    for (const server of servers) server.child.kill('SIGKILL')
  })
  try {
    const sessionSecret = randomBytes(32).toString('hex')
    const seedFile = join(work, 'seed.db')
    const baseEnv = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_REQUESTS: 'false' }
    console.log('\nScale: seeding the discussion…')
    const seeded = await runNode(
      ['--import', 'tsx', 'tests/bench/seed-discussion.ts', seedFile],
      { ...baseEnv, DATABASE_URL: `file:${seedFile}` },
      root,
    )
    const discussion = JSON.parse(seeded.trim().split('\n').at(-1) ?? '') as Discussion

    const shapes = [
      { name: '1 process', workers: 1 },
      { name: '2 workers', workers: 2 },
    ]
    const started: { name: string; server: ServerProcess; csrfToken: string }[] = []
    for (const shape of shapes) {
      const file = join(work, `${shape.workers}.db`)
      copyFileSync(seedFile, file)
      const port = await freePort()
      const server = await startServer({
        name: shape.name,
        args: ['server.js'],
        port,
        cwd: root,
        env: {
          ...baseEnv,
          PORT: String(port),
          BASE_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: `file:${file}`,
          SESSION_SECRET: sessionSecret,
          WEB_CONCURRENCY: String(shape.workers),
        },
      })
      servers.push(server)
      const agent = new Agent()
      const csrf = await send(agent, port, {
        method: 'GET',
        path: '/api/csrf',
        headers: { Cookie: discussion.cookie },
      })
      started.push({
        name: shape.name,
        server,
        csrfToken: (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken,
      })
    }
    // With two workers, a worker's first requests pay for its cold start: warm both up alike.
    for (const { server, csrfToken } of started) await loadRound(server.port, discussion, csrfToken)

    const rounds = new Map<string, Round[]>(started.map(({ name }) => [name, []]))
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? started : [...started].reverse()
      for (const { name, server, csrfToken } of order) {
        const result = await loadRound(server.port, discussion, csrfToken)
        if (result.read.errors + result.write.errors > 0)
          throw new Error(`${name}: ${result.read.errors} reads and ${result.write.errors} writes failed`)
        rounds.get(name)?.push(result)
      }
    }

    const [one, two] = started.map(({ name }) => rounds.get(name) ?? []) as [Round[], Round[]]
    const ratio = (kind: Kind) =>
      median(one.map((round, i) => (two[i]?.[kind].rps ?? Number.NaN) / round[kind].rps))
    const row = (name: string, list: Round[]) => ({
      name,
      read: { rps: median(list.map((r) => r.read.rps)), p99: median(list.map((r) => r.read.p99)) },
      write: { rps: median(list.map((r) => r.write.rps)), p99: median(list.map((r) => r.write.p99)) },
    })
    const rows = [row(started[0]?.name ?? '', one), row(started[1]?.name ?? '', two)]
    const results = {
      measuredAt: new Date().toISOString(),
      cores: availableParallelism(),
      loadAverage: loadavg()[0],
      connections: CONNECTIONS,
      roundSeconds: ROUND_SECONDS,
      rounds: ROUNDS,
      mix: `${WRITE_EVERY - 1} getComments reads : 1 task.create write`,
      rows,
      ratios: { read: ratio('read'), write: ratio('write') },
    }

    const f = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 })
    const ms = (n: number) => `${n.toFixed(1)} ms`
    const table = [
      `Measured by \`npm run bench\` (tests/bench/scale.ts) on ${results.measuredAt.slice(0, 10)}: ${CONNECTIONS} connections, ${results.mix}, median of ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s; ${results.cores} cores, load average ${results.loadAverage?.toFixed(1)}. The load generator runs on the same cores as the servers, so two workers compete with it for them: the ratio is a floor, not what a machine of its own would show.`,
      '',
      '| server | reads/s | read p99 | writes/s | write p99 |',
      '|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${f(r.read.rps)} | ${ms(r.read.p99)} | ${f(r.write.rps)} | ${ms(r.write.p99)} |`,
      ),
      `| **2 workers / 1 process** | **${results.ratios.read.toFixed(2)}x** | | **${results.ratios.write.toFixed(2)}x** | |`,
    ].join('\n')
    console.log(`\n### Scale: one process vs WEB_CONCURRENCY=2\n\n${table}`)
    if (isWritingDocs()) writeBenchSection('scale', table)
    mkdirSync(join(root, 'tests/bench/results'), { recursive: true })
    writeFileSync(join(root, 'tests/bench/results/scale.json'), `${JSON.stringify(results, null, 2)}\n`)
  } finally {
    await Promise.all(servers.map((server) => stopServer(server)))
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
