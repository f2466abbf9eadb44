import type { RouteConfigEntry } from '@react-router/dev/routes'
import {
  type ServerBuild,
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
} from 'react-router'
import * as entryModule from '~/entry.server'
import * as rootModule from '~/root'
import routeConfig from '~/routes'
import reactRouterConfig from '../../react-router.config'

/**
 * The server build Vite would make (`virtual:react-router/server-build`), put together from
 * app/routes.ts and the real route modules, so tests can run server/app.ts whole — the steps ahead
 * of the router, the request adapter, React Router with the root middleware, the route modules —
 * without a build. vitest.config.ts resolves the virtual module here. Documents render as built;
 * the assets manifest is the least a document needs.
 * One middleware is added in front of the root's: it records what reached the router.
 */

type RouteModule = NonNullable<ServerBuild['routes'][string]>['module']
const modules = import.meta.glob<RouteModule>(['../../app/routes/**/*.{ts,tsx}', '!**/*.test.*'], {
  eager: true,
})

/**
 * A route module as the build hands it to React Router: its component and error boundary
 * wrapped to receive `loaderData`, `params` and the rest as props, as React Router's Vite plugin
 * wraps them, so documents render as they do in production.
 */
function asBuilt(module: RouteModule): RouteModule {
  const { default: Component, ErrorBoundary } = module as {
    default?: Parameters<typeof withComponentProps>[0]
    ErrorBoundary?: Parameters<typeof withErrorBoundaryProps>[0]
  }
  return {
    ...module,
    ...(Component ? { default: withComponentProps(Component) } : {}),
    ...(ErrorBoundary ? { ErrorBoundary: withErrorBoundaryProps(ErrorBoundary) } : {}),
  } as RouteModule
}

type Route = { id: string; parentId: string; path?: string; index?: boolean; module: RouteModule }

function flatten(config: RouteConfigEntry[], parentId: string): Route[] {
  return config.flatMap((entry) => {
    const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, '')
    const module = modules[`../../app/${entry.file}`]
    if (!module) throw new Error(`No module for ${entry.file}`)
    const route = { id, parentId, path: entry.path, index: entry.index, module: asBuilt(module) }
    return [route, ...flatten(entry.children ?? [], id)]
  })
}

const flat = flatten(await routeConfig, 'root')

export const entry = { module: entryModule }

/** Every request React Router handled, as `METHOD /path?query`: what was not answered ahead of it. */
export const routerRequests: string[] = []

const recordRequest = ({ request }: { request: Request }, next: () => Promise<unknown>) => {
  const url = new URL(request.url)
  routerRequests.push(`${request.method} ${url.pathname}${url.search}`)
  return next()
}

export const routes: ServerBuild['routes'] = {
  root: {
    id: 'root',
    path: '',
    module: asBuilt({
      ...rootModule,
      middleware: [recordRequest, ...rootModule.middleware],
    } as unknown as RouteModule),
  },
  ...Object.fromEntries(flat.map((route) => [route.id, route])),
}

const assetsOf = (id: string, module: RouteModule, parentId?: string, path?: string, index?: boolean) => ({
  id,
  parentId,
  path,
  index,
  hasAction: 'action' in module,
  hasLoader: 'loader' in module,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: 'ErrorBoundary' in module,
  module: `/${id}.js`,
  imports: [],
  css: [],
})

export const assets = {
  entry: { module: '/entry.client.js', imports: [] },
  routes: {
    root: assetsOf('root', routes.root?.module as RouteModule),
    ...Object.fromEntries(
      flat.map((route) => [
        route.id,
        assetsOf(route.id, route.module, route.parentId, route.path, route.index),
      ]),
    ),
  },
  url: '/manifest.js',
  version: 'test',
}

export const publicPath = '/'
export const assetsBuildDirectory = 'build/client'
export const future = reactRouterConfig.future
export const ssr = true
export const isSpaMode = false
export const prerender: string[] = []
export const routeDiscovery = { mode: 'initial', manifestPath: '/__manifest' }
export const allowedActionOrigins = reactRouterConfig.allowedActionOrigins
export const basename = '/'
