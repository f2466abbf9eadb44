/**
 * The app on the real libSQL server, `sqld`, against the app on an embedded file (`npm run bench`,
 * after run.ts), in two parts:
 *
 * 1. The driver alone, 4 clients writing to sqld at once: a change plus its event as an
 *    interactive transaction (BEGIN, two inserts, COMMIT: four round trips holding the write
 *    lock) against the same two inserts as one `batch` (one request). This is why the hot writes
 *    are batches (docs/decisions/026-hot-writes-as-batches.md).
 * 2. `node server.js` as deployed, once on sqld and once on a file, under the same mixed load:
 *    task creations (POST /api/rpc/task/create) and reads of one task (GET /api/rpc/task/get) at
 *    the same time, each from 8 connections. Write and read throughput and p99 for each.
 *
 * Rounds alternate between the two sides, and the report gives medians: the machine is shared,
 * so only figures measured side by side compare. The load generator shares the cores with the
 * servers and sqld. Writes tests/bench/results/sqld.json. A report, not a gate.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import autocannon from 'autocannon'
import { startSqld } from '../fixtures/sqld'
import { freePort } from '../helpers/free-port'
import { isWritingDocs, writeBenchSection } from './doc-sections'
import { serverEnv, startServer, stopServer } from './processes'

const ROUNDS = 3
const DRIVER_SECONDS = 2
const APP_SECONDS = 3
const CLIENTS = 4
const CONNECTIONS = 8

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** Part 1: writes per second from CLIENTS clients for `seconds`, each write `write(client)`. */
async function writesPerSecond(
  url: string,
  seconds: number,
  write: (client: ReturnType<typeof createClient>, n: number) => Promise<unknown>,
) {
  const clients = Array.from({ length: CLIENTS }, () => createClient({ url }))
  let done = 0
  let busy = 0
  const deadline = Date.now() + seconds * 1000
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        try {
          await write(client, done)
          done++
        } catch (error) {
          // sqld refuses a write now and then with SQLITE_BUSY under concurrent writers; the app
          // sends a refused batch again (`commit`, app/db/write.server.ts). Counted, and tried again here.
          if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
          busy++
        }
      }
    }),
  )
  for (const client of clients) client.close()
  return { perSecond: done / seconds, busy }
}

const insertChange = (n: number) => ({
  sql: 'INSERT INTO changes (id, body) VALUES (?, ?)',
  args: [crypto.randomUUID(), `change ${n}`],
})
const insertEvent = (n: number) => ({ sql: 'INSERT INTO log (payload) VALUES (?)', args: [`{"n":${n}}`] })

async function driverPart(url: string) {
  const setup = createClient({ url })
  await setup.batch([
    'CREATE TABLE changes (id TEXT PRIMARY KEY, body TEXT NOT NULL)',
    'CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, payload TEXT NOT NULL)',
  ])
  setup.close()
  const transactions: number[] = []
  const batches: number[] = []
  let busy = { transactions: 0, batches: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const inTransactions = await writesPerSecond(url, DRIVER_SECONDS, async (client, n) => {
      const tx = await client.transaction('write')
      try {
        await tx.execute(insertChange(n))
        await tx.execute(insertEvent(n))
        await tx.commit()
      } finally {
        tx.close()
      }
    })
    const inBatches = await writesPerSecond(url, DRIVER_SECONDS, (client, n) =>
      client.batch([insertChange(n), insertEvent(n)], 'write'),
    )
    transactions.push(inTransactions.perSecond)
    batches.push(inBatches.perSecond)
    busy = { transactions: busy.transactions + inTransactions.busy, batches: busy.batches + inBatches.busy }
  }
  return {
    transactionsPerSecond: median(transactions),
    batchesPerSecond: median(batches),
    busyRefusals: busy,
  }
}

type AppSide = { label: string; port: number; cookie: string; csrf: string; readPath: string }

/** Signs a person up through the API; returns their cookies and a CSRF token for writes. */
async function signUp(port: number) {
  const origin = `http://127.0.0.1:${port}`
  const anonymous = await fetch(`${origin}/api/csrf`)
  const anonymousCookie = anonymous.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
  const { csrfToken } = (await anonymous.json()) as { csrfToken: string }
  const signedUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: anonymousCookie },
    body: JSON.stringify({
      name: 'Bench',
      email: `bench-${port}@example.test`,
      password: 'correct horse battery staple',
    }),
  })
  if (signedUp.status !== 200)
    throw new Error(`sign-up on ${port} answered ${signedUp.status}: ${await signedUp.text()}`)
  const cookie = signedUp.headers
    .getSetCookie()
    .map((each) => each.split(';')[0])
    .join('; ')
  const token = await fetch(`${origin}/api/csrf`, { headers: { cookie } })
  const csrf = ((await token.json()) as { csrfToken: string }).csrfToken
  // The task the reads ask for: one of a fixed size, while the writes keep adding others.
  const created = await fetch(`${origin}/api/rpc/task/create`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ json: { text: 'The task everyone reads' } }),
  })
  const { id } = ((await created.json()) as { json: { id: string } }).json
  return {
    cookie,
    csrf,
    readPath: `/api/rpc/task/get?data=${encodeURIComponent(JSON.stringify({ json: { taskId: id } }))}`,
  }
}

type Load = {
  writesPerSecond: number
  writeP99Ms: number
  readsPerSecond: number
  readP99Ms: number
  errors: number
}

async function mixedLoad(side: AppSide, seconds: number): Promise<Load> {
  const base = `http://127.0.0.1:${side.port}`
  const [writes, reads] = await Promise.all([
    autocannon({
      url: `${base}/api/rpc/task/create`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: seconds,
      headers: { cookie: side.cookie, 'x-csrf-token': side.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ json: { text: 'A task under load' } }),
    }),
    autocannon({
      url: `${base}${side.readPath}`,
      connections: CONNECTIONS,
      duration: seconds,
      headers: { cookie: side.cookie },
    }),
  ])
  return {
    writesPerSecond: writes.requests.average,
    writeP99Ms: writes.latency.p99,
    readsPerSecond: reads.requests.average,
    readP99Ms: reads.latency.p99,
    errors: writes.non2xx + reads.non2xx + writes.errors + reads.errors,
  }
}

async function main() {
  const root = process.cwd()
  const work = mkdtempSync(join(tmpdir(), 'threadwork-bench-sqld-'))
  const driverSqld = await startSqld()
  const appSqld = await startSqld()
  const servers: Awaited<ReturnType<typeof startServer>>[] = []
  try {
    console.log(
      `Driver: ${CLIENTS} clients, a change and its event, ${ROUNDS} rounds of ${DRIVER_SECONDS} s each way…`,
    )
    const driver = await driverPart(driverSqld.url)

    const sides: AppSide[] = []
    for (const [label, url] of [
      ['sqld', appSqld.url],
      ['file', `file:${join(work, 'app.db')}`],
    ] as const) {
      const port = await freePort()
      const env = serverEnv(port, url, {
        BASE_URL: `http://127.0.0.1:${port}`,
        // One process on each side: this compares the databases, not the number of workers.
        WEB_CONCURRENCY: '1',
        SESSION_SECRET: randomBytes(32).toString('hex'),
      })
      servers.push(await startServer({ name: label, args: ['server.js'], port, env, cwd: root }))
      sides.push({ label, port, ...(await signUp(port)) })
    }
    console.log(
      `App: ${CONNECTIONS} connections writing and ${CONNECTIONS} reading, ${ROUNDS} rounds of ${APP_SECONDS} s per side…`,
    )
    const loads = new Map<string, Load[]>(sides.map((side) => [side.label, []]))
    for (const side of sides) await mixedLoad(side, 1) // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) loads.get(side.label)?.push(await mixedLoad(side, APP_SECONDS))
    }
    const app = Object.fromEntries(
      [...loads].map(([label, rounds]) => [
        label,
        {
          writesPerSecond: median(rounds.map((r) => r.writesPerSecond)),
          writeP99Ms: median(rounds.map((r) => r.writeP99Ms)),
          readsPerSecond: median(rounds.map((r) => r.readsPerSecond)),
          readP99Ms: median(rounds.map((r) => r.readP99Ms)),
          errors: rounds.reduce((sum, r) => sum + r.errors, 0),
        },
      ]),
    ) as Record<'sqld' | 'file', Load>

    const lines = [
      `### sqld: ${CLIENTS} clients writing a change and its event`,
      '',
      '| as | writes/s (median) |',
      '|---|---|',
      `| interactive transaction | ${driver.transactionsPerSecond.toFixed(0)} |`,
      `| one batch | ${driver.batchesPerSecond.toFixed(0)} |`,
      `| batch ÷ transaction | ${(driver.batchesPerSecond / driver.transactionsPerSecond).toFixed(2)}× |`,
      '',
      `Refused with SQLITE_BUSY and tried again: ${driver.busyRefusals.transactions} transactions, ${driver.busyRefusals.batches} batches.`,
      '',
      `### The app on sqld vs on an embedded file, mixed load (${CONNECTIONS} writing + ${CONNECTIONS} reading)`,
      '',
      '| database | writes/s | write p99 | reads/s | read p99 | non-2xx/errors |',
      '|---|---|---|---|---|---|',
      ...(['sqld', 'file'] as const).map(
        (label) =>
          `| ${label} | ${app[label].writesPerSecond.toFixed(0)} | ${app[label].writeP99Ms} ms | ${app[label].readsPerSecond.toFixed(0)} | ${app[label].readP99Ms} ms | ${app[label].errors} |`,
      ),
      '',
      `Medians of interleaved rounds on a shared machine (load average ${(loadavg()[0] ?? 0).toFixed(1)} at the end), each side one process; the load generator, the servers and sqld share its cores. Measured by \`npm run bench\` (tests/bench/sqld.ts) on ${new Date().toISOString().slice(0, 10)}.`,
    ]
    console.log(`\n${lines.join('\n')}`)
    if (isWritingDocs()) writeBenchSection('sqld', lines.join('\n'))
    mkdirSync(join(root, 'tests/bench/results'), { recursive: true })
    writeFileSync(
      join(root, 'tests/bench/results/sqld.json'),
      `${JSON.stringify({ measuredAt: new Date().toISOString(), driver, app }, null, 2)}\n`,
    )
  } finally {
    await Promise.all(servers.map(stopServer))
    await driverSqld.close()
    await appSqld.close()
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
