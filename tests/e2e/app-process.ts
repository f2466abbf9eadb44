import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from '@playwright/test'
import { freePort } from '../helpers/free-port'

/**
 * A `node server.js` of the built app of its own, for tests that must configure, stop or proxy the
 * server (the shared one would end everyone's tests): a free port, an empty database, its output.
 */

export type Running = {
  child: ChildProcess
  origin: string
  output: () => string
  exited: Promise<number | null>
}

/**
 * `publicHost` is the host name browsers use (BASE_URL's), where 127.0.0.1 will not do: passkeys
 * refuse an IP address as their relying party, so their journey browses `localhost`.
 */
export async function startServer(
  env: Record<string, string> = {},
  { publicHost = '127.0.0.1' }: { publicHost?: string } = {},
): Promise<Running> {
  const port = await freePort()
  const folder = mkdtempSync(join(tmpdir(), 'server-e2e-'))
  let output = ''
  const child = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: `http://${publicHost}:${port}`,
      DATABASE_URL: `file:${join(folder, 'app.db')}`,
      LOG_REQUESTS: 'true',
      SMTP_URL: '',
      // One process, as before clusters: tests of the cluster ask for workers themselves.
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(folder, { recursive: true, force: true })
      resolve(code)
    }),
  )
  return { child, origin: `http://${publicHost}:${port}`, output: () => output, exited }
}

export async function waitUntilListening(server: Running) {
  await expect.poll(() => server.output(), { timeout: 30_000 }).toContain('listening on')
}

export async function stopServer(server: Running) {
  server.child.kill('SIGTERM')
  await server.exited
}

/**
 * Two servers of the built app on one database file, as two machines on one libSQL database
 * would be. They start one at a time (each applies the migrations at boot); both are stopped and
 * the file removed when `run` ends, however it ends.
 */
export async function withTwoInstances(run: (a: Running, b: Running) => Promise<void>) {
  const folder = mkdtempSync(join(tmpdir(), 'two-instances-'))
  const env = { DATABASE_URL: `file:${join(folder, 'app.db')}` }
  const servers: Running[] = []
  try {
    for (let i = 0; i < 2; i++) {
      const server = await startServer(env)
      servers.push(server)
      await waitUntilListening(server)
    }
    const [a, b] = servers as [Running, Running]
    await run(a, b)
  } finally {
    await Promise.all(servers.map((server) => (server.child.exitCode === null ? stopServer(server) : null)))
    rmSync(folder, { recursive: true, force: true })
  }
}
