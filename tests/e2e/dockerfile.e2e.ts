import { spawn } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '../helpers/free-port'
import { expect, test } from './fixtures'

/**
 * Docker cannot run on the machines this kit is built on, so the Dockerfile's runtime is proven by
 * doing what it says, read from the Dockerfile itself: the build stage's command is the one
 * `npm test` runs before these tests; the runtime stage's files are copied into a folder of their
 * own, its ENV is the environment, its CMD is started as its unprivileged user (uid 1000, the
 * image's `node`), and the database goes into a folder only that user may write, as the volume
 * at /data is. The server must migrate the empty database, answer /healthz and stop cleanly.
 * Not reproduced: the base image itself, and the pruned node_modules (the full one stands in).
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

const IMAGE_USER_UID = 1000

type Stage = { name: string; lines: string[] }

/** The Dockerfile's stages, each with its instructions (continuation lines joined). */
function dockerfileStages(): Stage[] {
  const text = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ')
  const stages: Stage[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const from = /^FROM \S+ AS (\S+)$/i.exec(line)
    if (from?.[1]) stages.push({ name: from[1], lines: [] })
    else stages.at(-1)?.lines.push(line)
  }
  return stages
}

function instructions(stage: Stage | undefined, keyword: string) {
  return (stage?.lines ?? [])
    .filter((line) => line.startsWith(`${keyword} `))
    .map((line) => line.slice(keyword.length + 1).trim())
}

test('the Dockerfile’s runtime, done outside Docker: migrate, serve and stop as the unprivileged user', async () => {
  test.setTimeout(60_000)
  const stages = dockerfileStages()
  const build = stages.find((stage) => stage.name === 'build')
  const runtime = stages.find((stage) => stage.name === 'runtime')
  // The image builds with the command `npm test` runs before the browser tests.
  expect(instructions(build, 'RUN').join(' ')).toContain('npm run build')
  expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.test).toContain('npm run build')

  const env: Record<string, string> = {}
  for (const line of instructions(runtime, 'ENV')) {
    for (const [, name, value] of line.matchAll(/(\w+)=(\S+)/g)) if (name && value) env[name] = value
  }
  expect(env).toMatchObject({ NODE_ENV: 'production', DATABASE_URL: 'file:/data/app.db' })
  expect(instructions(runtime, 'USER')).toEqual(['node'])
  const command = JSON.parse(instructions(runtime, 'CMD')[0] ?? '[]') as string[]
  expect(command).toEqual(['node', 'server.js'])

  const folder = mkdtempSync(join(tmpdir(), 'dockerfile-'))
  chmodSync(folder, 0o755)
  const app = join(folder, 'app')
  const data = join(folder, 'data')
  try {
    mkdirSync(app)
    for (const copy of instructions(runtime, 'COPY')) {
      const parts = copy.split(/\s+/)
      if (parts[0]?.startsWith('--from=prod-deps')) {
        symlinkSync(resolve('node_modules'), join(app, 'node_modules'))
        continue
      }
      const sources = parts.slice(parts[0]?.startsWith('--from=') ? 1 : 0, -1)
      for (const source of sources) {
        const path = source.replace(/^\/app\//, '')
        cpSync(resolve(path), join(app, path), { recursive: true })
      }
    }
    // The volume: writable by the image's user only.
    mkdirSync(data, { mode: 0o755 })
    const isRoot = process.getuid?.() === 0
    if (isRoot) chownSync(data, IMAGE_USER_UID, IMAGE_USER_UID)

    const port = await freePort()
    const [program, ...args] = command
    // As root (CI containers), drop to the image's uid; otherwise this user is unprivileged already.
    // The image copies its dependencies in; here node_modules is a link into the checkout, whose
    // parent folders that uid may not enter (a clone in a private temporary folder), so it keeps
    // the one capability to read — never to write — files it does not own.
    const argv = isRoot
      ? [
          'setpriv',
          `--reuid=${IMAGE_USER_UID}`,
          `--regid=${IMAGE_USER_UID}`,
          '--clear-groups',
          '--inh-caps=+dac_read_search',
          '--ambient-caps=+dac_read_search',
          process.execPath,
          ...args,
        ]
      : [process.execPath, ...args]
    expect(program).toBe('node')
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        ...env,
        DATABASE_URL: env.DATABASE_URL?.replace('/data/', `${data}/`),
        HOST: '127.0.0.1',
        PORT: String(port),
        SESSION_SECRET: 'a'.repeat(32),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout?.on('data', (chunk) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      output += chunk
    })
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toContain('listening on')
      const health = await fetch(`http://127.0.0.1:${port}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ status: 'ok', migrations: { isCurrent: true } })
      if (isRoot) {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        expect(status).toMatch(new RegExp(`^Uid:\\s+${IMAGE_USER_UID}\\s`, 'm'))
      }
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited, output).toBe(0)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})
