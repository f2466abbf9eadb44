import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { type Agent, request } from 'node:http'

/** A server under test, running as its own process so it has a core to itself while measured. */
export type ServerProcess = {
  name: string
  port: number
  child: ChildProcess
  /** Lines the server wrote to stdout, known once it has stopped (the request-log check). */
  stdoutLines: Promise<number>
  stderr: () => string
}

/**
 * Reads a server's stdout as a log collector would, in a process of its own: a server that logs
 * every request pays for the writes as in production, while a busy load generator can never
 * leave the pipe full and stall it. It passes on only the "listening" line, and the count of
 * lines at the end.
 */
const DRAIN = `
let lines = 0, seen = '', announced = false
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  for (let i = chunk.indexOf('\\n'); i !== -1; i = chunk.indexOf('\\n', i + 1)) lines++
  if (!announced) {
    seen += chunk
    if (/listening/i.test(seen)) { announced = true; seen = ''; process.stdout.write('listening\\n') }
  }
}).on('end', () => process.stdout.write('lines ' + lines + '\\n'))
`

/**
 * What `node server.js` runs with in a bench: as deployed (NODE_ENV=production), on loopback, the
 * request log off; `overrides` last (a BASE_URL, a second worker, a shared SESSION_SECRET).
 */
export function serverEnv(
  port: number,
  databaseUrl: string,
  overrides: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_REQUESTS: 'false',
    ...overrides,
  }
}
/** Starts `node <args>` and resolves once it prints its "listening" line. */
export function startServer(options: {
  name: string
  args: string[]
  port: number
  env: NodeJS.ProcessEnv
  cwd: string
}): Promise<ServerProcess> {
  const drain = spawn(process.execPath, ['-e', DRAIN], { stdio: ['pipe', 'pipe', 'inherit'] })
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', drain.stdin, 'pipe'],
  })
  // The server holds the pipe now; closing our end lets the drain see its end when it stops.
  drain.stdin?.destroy()
  let stderr = ''
  let drained = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const stdoutLines = new Promise<number>((resolve) => {
    drain.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      drained += chunk
    })
    drain.once('exit', () => resolve(Number(/lines (\d+)/.exec(drained)?.[1] ?? 0)))
  })
  const server: ServerProcess = {
    name: options.name,
    port: options.port,
    child,
    stdoutLines,
    stderr: () => stderr,
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${options.name} did not start within 30 s:\n${stderr}`))
    }, 30_000)
    drain.stdout?.on('data', () => {
      if (!drained.includes('listening')) return
      clearTimeout(timer)
      resolve(server)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${options.name} exited with ${code} before listening:\n${stderr}`))
    })
  })
}

/** Runs a short-lived node script to completion (e.g. seeding), failing loudly; resolves its stdout. */
export function runNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.once('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`node ${args.join(' ')} failed:\n${stderr}`)),
    )
  })
}

export function stopServer(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve()
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 12_000)
    server.child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    server.child.kill('SIGTERM')
  })
}

/** Linux's clock tick for /proc times (USER_HZ), which is 100 on every mainstream kernel. */
const TICKS_PER_SECOND = 100

/**
 * CPU time the process has used so far (user + system, all threads) in ms, or undefined off
 * Linux. Per request, it shows what a server costs even when other work on the machine makes
 * requests per second swing.
 */
export function cpuTimeMs(child: ChildProcess | number): number | undefined {
  const pid = typeof child === 'number' ? child : child.pid
  if (process.platform !== 'linux' || !pid) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}

/**
 * The processes `child` started (a cluster primary's workers), from Linux's /proc; none off Linux
 * or once it has stopped.
 */
function childPids(child: ChildProcess): number[] {
  if (process.platform !== 'linux' || !child.pid) return []
  try {
    const listed = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
    return listed.split(' ').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** CPU time a cluster has used so far, in ms: its primary and every worker it runs now. */
export function clusterCpuTimeMs(primary: ChildProcess): number {
  const pids = [primary.pid ?? 0, ...childPids(primary)]
  return pids.reduce((sum, pid) => sum + (cpuTimeMs(pid) ?? 0), 0)
}

/** The largest RSS among a cluster's workers now, in bytes (0 off Linux). */
export function largestWorkerRss(primary: ChildProcess): number {
  return Math.max(0, ...childPids(primary).map((pid) => rssBytes(pid) ?? 0))
}

export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer }

/**
 * One request with node:http, so the body arrives exactly as sent (fetch would undo gzip) and
 * can be replayed byte for byte by the bare node:http server. `agent` keeps connections open
 * between requests, as a load generator's do.
 */
export function rawRequest(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string; agent?: Agent },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const { method, path, headers, agent } = options
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** The process's resident memory in bytes (VmRSS), or undefined off Linux. */
export function rssBytes(child: ChildProcess | number): number | undefined {
  const pid = typeof child === 'number' ? child : child.pid
  if (process.platform !== 'linux' || !pid) return undefined
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}
