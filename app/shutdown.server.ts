/**
 * Work to finish before the process exits (ending event streams, flushing the outbox). The
 * server runs these on SIGTERM/SIGINT before it waits for in-flight requests.
 */
const hooks = new Set<() => Promise<void> | void>()

export function onShutdown(hook: () => Promise<void> | void) {
  hooks.add(hook)
  return () => hooks.delete(hook)
}

export async function runShutdownHooks() {
  await Promise.allSettled([...hooks].map(async (hook) => hook()))
}
