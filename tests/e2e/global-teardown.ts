import { rm } from 'node:fs/promises'

/** The run's database lives in a temp folder of its own; nothing in it outlives the run. */
export default async function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR
  if (dir) await rm(dir, { recursive: true, force: true })
}
