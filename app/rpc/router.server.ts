import { checkHealth } from '~/services/health.server'
import { base } from './base.server'

/**
 * Every procedure of /api/rpc (DESIGN.md §6.2). Reads are GET-able (`.route({ method: 'GET' })`);
 * mutations are POST only. Each procedure is a thin adapter onto one service function.
 */
export const router = {
  healthCheck: base.route({ method: 'GET' }).handler(({ context }) => checkHealth(context.db)),
}

export type Router = typeof router
