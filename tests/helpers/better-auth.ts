import { action, loader } from '~/routes/api/auth'
import { clientContext } from './auth'
import { callAction, callLoader, type RequestOptions } from './route'

/** /api/auth called the way the better-auth client calls it: GET with a query, POST with JSON. */

export function getAuthApi(path: string, options: RequestOptions = {}) {
  const [pathname = ''] = path.split('?')
  return callLoader(loader, {
    ...options,
    url: `/api/auth/${path}`,
    params: { '*': pathname },
    context: clientContext(),
  })
}

export function postAuthApi(path: string, json: unknown, options: RequestOptions = {}) {
  return callAction(action, {
    ...options,
    url: `/api/auth/${path}`,
    json,
    params: { '*': path },
    context: clientContext(),
  })
}
