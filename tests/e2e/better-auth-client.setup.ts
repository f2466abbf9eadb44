import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Installs the real better-auth client into tests/contract/better-auth (once; it is 21 small
 * packages) for the contract test. It lives apart from the app's tree because its optional peers
 * (TanStack Start and Vite plugins) clash with the app's, and only its client is needed.
 */
export const CONTRACT_DIR = join(process.cwd(), 'tests/contract/better-auth')

export default function installBetterAuthClient() {
  if (existsSync(join(CONTRACT_DIR, 'node_modules/better-auth/package.json'))) return
  execFileSync('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund'], {
    cwd: CONTRACT_DIR,
    stdio: 'inherit',
  })
}
