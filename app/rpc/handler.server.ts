import type { AnyContractRouter } from '@orpc/contract'
import { ORPCError, onError, type Router } from '@orpc/server'
import { RPCHandler } from '@orpc/server/fetch'
import { database } from '~/db/client.server'
import { type RpcContext, toORPCError } from './base.server'
import { router } from './router.server'

export const RPC_PREFIX = '/api/rpc'

/**
 * The methods of the RPC protocol: GET for reads, POST for everything. The protocol reads a body
 * from any other method, so without this a PUT or DELETE would run a mutation that is meant to
 * be POST only.
 */
const RPC_METHODS = new Set(['GET', 'POST'])

/**
 * An RPC handler with the app's error translation and logging. Exported so tests can mount a
 * router of their own with exactly the behaviour clients see.
 */
export function createRpcHandler(procedures: Router<AnyContractRouter, RpcContext>) {
  // What failed inside a request, kept until its answer shows whether the failure was expected.
  const failures = new WeakMap<object, unknown>()
  return new RPCHandler(procedures, {
    rootInterceptors: [
      async (options) => {
        const result = await options.next()
        // Expected failures are answers — a refusal, or a malformed request oRPC answers 400 —
        // and only what the server could not answer (5xx) belongs in the log.
        if (result.matched && result.response.status >= 500) {
          console.error('RPC error', failures.get(options.request) ?? `status ${result.response.status}`)
        }
        return result
      },
    ],
    clientInterceptors: [
      async ({ next }) => {
        try {
          return await next()
        } catch (error) {
          throw toORPCError(error)
        }
      },
    ],
    interceptors: [
      async (options) => {
        if (!RPC_METHODS.has(options.request.method)) throw new ORPCError('METHOD_NOT_SUPPORTED')
        return options.next()
      },
      onError((error, options) => {
        failures.set(options.request, error)
      }),
    ],
  })
}

const handler = createRpcHandler(router)

/** Answers an /api/rpc request, or undefined when no procedure matches its path. */
export async function handleRpc(
  request: Request,
  caller: Pick<RpcContext, 'user' | 'isCsrfValid' | 'tokenScope'>,
) {
  const { matched, response } = await handler.handle(request, {
    prefix: RPC_PREFIX,
    context: { db: database(), headers: request.headers, ...caller },
  })
  return matched ? response : undefined
}
