import {
  createRequestHandler,
  type EntryContext,
  RouterContextProvider,
  type ServerBuild,
} from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { NOT_A_FORM_MESSAGE, readFormData, UNREADABLE_FORM_MESSAGE } from '~/utils/form-data.server'
import reactRouterConfig from '../../react-router.config'
import { buildRequest } from '../../tests/helpers/route'

/** What a thrown `data(message, { status })` carries, or the error itself when it is anything else. */
async function refusalOf(request: Request) {
  try {
    await readFormData(request)
  } catch (thrown) {
    const { data, init } = thrown as { data: unknown; init: { status: number } | null }
    return { status: init?.status, message: data }
  }
  throw new Error('Expected the form to be refused')
}

describe('readFormData', () => {
  test.each([
    ['URL-encoded', 'application/x-www-form-urlencoded'],
    ['URL-encoded, in capitals with a charset', 'Application/X-WWW-Form-URLEncoded; charset=UTF-8'],
  ])('reads a %s form', async (_label, type) => {
    const request = buildRequest({
      method: 'POST',
      headers: { 'Content-Type': type },
      body: 'a=1&a=2&b=%F0%9F%91%8D',
    })
    const form = await readFormData(request)
    expect(form.getAll('a')).toEqual(['1', '2'])
    expect(form.get('b')).toBe('👍')
  })

  test('reads a multipart form with a file', async () => {
    const body = new FormData()
    body.set('name', 'value')
    body.set('upload', new Blob(['bytes']), 'x.bin')
    const form = await readFormData(buildRequest({ method: 'POST', form: body }))
    expect(form.get('name')).toBe('value')
    expect(form.get('upload')).toBeInstanceOf(File)
  })

  test('parses the body once, however many times it is asked, and never copies it', async () => {
    const request = buildRequest({ method: 'POST', form: { a: '1' } })
    const parse = vi.spyOn(request, 'formData')
    const clone = vi.spyOn(request, 'clone')
    const [first, second] = await Promise.all([readFormData(request), readFormData(request)])
    expect(first).toBe(second)
    expect(await readFormData(request)).toBe(first)
    expect(parse).toHaveBeenCalledTimes(1)
    expect(clone).not.toHaveBeenCalled()
  })

  test.each([
    ['JSON', { 'Content-Type': 'application/json' }, '{"a":1}'],
    ['plain text', { 'Content-Type': 'text/plain' }, 'a=1'],
    ['no content type', {}, undefined],
    ['a look-alike type', { 'Content-Type': 'application/x-www-form-urlencoded-evil' }, 'a=1'],
    ['a type with no name', { 'Content-Type': '; boundary=x' }, 'a=1'],
  ])('answers %s with 415 and says what to send', async (_label, headers, body) => {
    const request = new Request('http://localhost/', { method: 'POST', headers, body })
    // A body without a type gets text/plain from the Request constructor; an empty one gets none.
    if (body === undefined) expect(request.headers.get('Content-Type')).toBeNull()
    expect(await refusalOf(request)).toEqual({ status: 415, message: NOT_A_FORM_MESSAGE })
  })

  test.each([
    ['a multipart body without a boundary', 'multipart/form-data', 'a=1'],
    ['a multipart body with another boundary', 'multipart/form-data; boundary=abc', '--xyz\r\n\r\n'],
    [
      'a multipart body cut short',
      'multipart/form-data; boundary=abc',
      '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalu',
    ],
  ])('answers %s with 400', async (_label, type, body) => {
    const request = buildRequest({ method: 'POST', headers: { 'Content-Type': type }, body })
    expect(await refusalOf(request)).toEqual({ status: 400, message: UNREADABLE_FORM_MESSAGE })
  })

  test('a body someone else already read is a bug, not the client’s mistake', async () => {
    const request = buildRequest({ method: 'POST', form: { a: '1' } })
    await request.text()
    await expect(readFormData(request)).rejects.toThrow('read before readFormData')
  })
})

/**
 * The memo is keyed by the Request, so it holds only if React Router hands the root middleware
 * (the CSRF check) and the action the very same object. It does with `v8_passThroughRequests`;
 * without it, `.data` requests get a copy. A minimal app with this project's future flags, served
 * by React Router's own request handler, pins that down for all three kinds of POST.
 */
describe('with React Router’s request handler', () => {
  test.each(['/resource', '/page.data', '/page'])(
    'middleware and action share one parse (POST %s)',
    async (path) => {
      const requests: Request[] = []
      const forms: FormData[] = []
      const record = async (request: Request) => {
        requests.push(request)
        forms.push(await readFormData(request))
      }
      const middleware = async ({ request }: { request: Request }, next: () => Promise<Response>) => {
        await record(request)
        return next()
      }
      const action = async ({ request }: { request: Request }) => {
        await record(request)
        return Response.json({ ok: true })
      }
      const handler = createRequestHandler(minimalBuild(middleware, action), 'production')
      const request = new Request(`http://localhost${path}`, {
        method: 'POST',
        body: new URLSearchParams({ a: '1' }),
      })
      const response = await handler(request, new RouterContextProvider())

      expect(response.status).toBe(200)
      expect(requests).toHaveLength(2)
      expect(requests[1]).toBe(requests[0])
      expect(forms[1]).toBe(forms[0])
    },
  )

  test.each(['/resource', '/page.data', '/page'])(
    'a body that is not a form is a 415, not a 500 (POST %s)',
    async (path) => {
      const action = async ({ request }: { request: Request }) =>
        Response.json(Object.fromEntries(await readFormData(request)))
      const pass = (_args: unknown, next: () => Promise<Response>) => next()
      const handler = createRequestHandler(minimalBuild(pass, action), 'production')
      const request = new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"a":1}',
      })
      const response = await handler(request, new RouterContextProvider())
      expect(response.status).toBe(415)
      expect(await response.text()).toContain(NOT_A_FORM_MESSAGE)
    },
  )
})

/** A root route with `middleware`, a page and a resource route with `action`; no markup. */
function minimalBuild(middleware: unknown, action: unknown) {
  const assets = (id: string, path?: string) => ({
    id,
    parentId: id === 'root' ? undefined : 'root',
    path,
    hasAction: id !== 'root',
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
    module: `/${id}.js`,
    imports: [],
    css: [],
  })
  // The document: its status and, instead of markup, the errors the page would show.
  const html = (_request: Request, status: number, headers: Headers, context: EntryContext) =>
    new Response(JSON.stringify(context.staticHandlerContext.errors), { status, headers })
  return {
    entry: { module: { default: html } },
    routes: {
      root: { id: 'root', path: '', module: { middleware: [middleware], default: () => null } },
      page: { id: 'page', parentId: 'root', path: 'page', module: { action, default: () => null } },
      resource: { id: 'resource', parentId: 'root', path: 'resource', module: { action } },
    },
    assets: {
      entry: { module: '/entry.js', imports: [] },
      routes: {
        root: assets('root'),
        page: assets('page', 'page'),
        resource: assets('resource', 'resource'),
      },
      url: '/manifest.js',
      version: '1',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: reactRouterConfig.future,
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
  } as unknown as ServerBuild
}
