/**
 * `npm run bench` (after the build): every part in turn, each in a process of its own, each handed
 * this command's arguments, so `npm run bench -- --sse-only` reaches the part that reads it rather
 * than only the last of a chain of commands. The budget and dashboard parts measure one instance,
 * so their servers run one process each (`WEB_CONCURRENCY=1`); the scale and mixed parts set
 * their own. Every part runs even when one fails; the exit code is the first failure's (a budget
 * over its limit, say), after all of them have printed.
 *
 *   npm run bench                                  every part
 *   npm run bench -- --sse-only [--subscribers N]  only the event streams (in run.ts)
 *   npm run bench -- --mixed-only                  only the mixed load (mixed.ts)
 *   npm run bench -- --write-readme                also write the tables into README.md and docs/performance.md
 */
import { spawnSync } from 'node:child_process'

type Part = { file: string; env?: Record<string, string> }

const PARTS: Part[] = [
  { file: 'tests/bench/run.ts', env: { WEB_CONCURRENCY: '1' } },
  { file: 'tests/bench/dashboard.ts', env: { WEB_CONCURRENCY: '1' } },
  { file: 'tests/bench/scale.ts' },
  { file: 'tests/bench/sqld.ts' },
  { file: 'tests/bench/search.ts' },
  { file: 'tests/bench/mixed.ts' },
]

const args = process.argv.slice(2)
const isStreamsOnly = args.includes('--sse-only') || args.includes('--sse-paths')
const only = (file: string) => PARTS.filter((part) => part.file === file)
const parts = isStreamsOnly
  ? only('tests/bench/run.ts')
  : args.includes('--mixed-only')
    ? only('tests/bench/mixed.ts')
    : PARTS

let exitCode = 0
for (const part of parts) {
  const { status, signal } = spawnSync('npx', ['tsx', part.file, ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...part.env },
  })
  if (signal) process.kill(process.pid, signal)
  if (status !== 0 && exitCode === 0) exitCode = status ?? 1
}
process.exit(exitCode)
