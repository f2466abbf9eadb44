import { format } from 'node:util'
import { currentRequestInfo, type RequestInfo } from './request-info.server'

/**
 * The server's one logger is the console: every module writes `console.log/warn/error`, and this
 * module decides how a line looks (docs/decisions/044-metrics-traces-and-structured-logs.md).
 * `text` (the default) leaves the console as it is, readable in a terminal; `json`
 * (`LOG_FORMAT=json`) turns every call, start-up messages included, into one JSON object per line
 * with the time, level, message, and the request it belongs to (its id, route and signed-in
 * person's id), for a log pipeline to index.
 */

export type LogFormat = 'text' | 'json'

type Level = 'debug' | 'info' | 'warn' | 'error'

const METHODS = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' } as const

let current: LogFormat = 'text'

/** Switches the console to `format`; returns what puts it back (tests). */
export function setLogFormat(logFormat: LogFormat) {
  current = logFormat
  if (logFormat === 'text') return () => {}
  const originals = new Map<keyof typeof METHODS, (...parts: unknown[]) => void>()
  for (const [method, level] of Object.entries(METHODS) as [keyof typeof METHODS, Level][]) {
    originals.set(method, console[method])
    console[method] = (...parts: unknown[]) => writeJson(level, parts)
  }
  return () => {
    current = 'text'
    for (const [method, original] of originals) console[method] = original
  }
}

/**
 * Query parameters whose value is a secret (a verification or reset link's token, an OAuth code
 * or state, a signature): their values never reach a log line.
 */
const SECRET_PARAM = /([?&](?:[\w-]*token|code|state|secret|key|password|sig|signature)=)[^&#\s]*/gi

function redactSecrets(text: string) {
  return text.includes('=') ? text.replace(SECRET_PARAM, '$1[redacted]') : text
}

/**
 * An error as one line of the log, without its stack: its message and its causes' (drizzle's
 * "Failed query: …" names the SQL, its cause the reason), each folded onto the line and left out
 * when the one before says it already.
 */
export function errorLine(error: unknown): string {
  const parts: string[] = []
  for (let cause = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    const message = (cause instanceof Error ? cause.message : String(cause)).replace(/\s*\n\s*/g, ' ')
    if (!parts.at(-1)?.includes(message)) parts.push(message)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return parts.join(': ')
}

/** The request log's line, written when its response ended (or its client went away). */
export function logRequest(line: {
  method: string
  url: string
  status: number
  ms: number
  info: RequestInfo
}) {
  const url = redactSecrets(line.url)
  if (current === 'text') {
    console.log(`${line.method} ${url} ${line.status} ${line.ms.toFixed(1)}ms`)
    return
  }
  write('info', {
    msg: `${line.method} ${url} ${line.status}`,
    method: line.method,
    path: url,
    status: line.status,
    duration: Math.round(line.ms * 10) / 10,
    ...requestFields(line.info),
  })
}

function requestFields(info: RequestInfo | undefined) {
  if (!info) return {}
  return { requestId: info.id, route: info.route, ...(info.userId ? { userId: info.userId } : {}) }
}

function writeJson(level: Level, parts: unknown[]) {
  const error = parts.find((part) => part instanceof Error)
  const words = parts.filter((part) => part !== error && part !== '')
  write(level, {
    msg: redactSecrets(format(...words)),
    ...(error
      ? { error: { name: error.name, message: redactSecrets(error.message), stack: error.stack } }
      : {}),
    ...requestFields(currentRequestInfo()),
  })
}

function write(level: Level, fields: Record<string, unknown>) {
  const line = `${JSON.stringify({ time: new Date().toISOString(), level, pid: process.pid, ...fields })}\n`
  if (level === 'warn' || level === 'error') process.stderr.write(line)
  else process.stdout.write(line)
}
