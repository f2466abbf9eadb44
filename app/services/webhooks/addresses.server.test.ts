import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { forbiddenAddressKind, type Resolver, refuseEndpointUrl } from './addresses.server'
import { sendMessage } from './send.server'

/**
 * Where webhooks may go: address literals in every spelling the URL parser accepts, reserved
 * names, and names that resolve to forbidden addresses at delivery (a resolver of the test's
 * own: no name needs the internet).
 */

const REFUSED = [
  'https://127.0.0.1/hook',
  'https://127.1/hook',
  'https://0x7f.1/hook',
  'https://2130706433/hook',
  'https://017700000001/hook',
  'https://0.0.0.0/hook',
  'https://[::]/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:10.0.0.1]/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://[fe80::1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://app.localhost/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
]

describe('adding an endpoint', () => {
  test.each(REFUSED)('refuses %s, saying why', (url) => {
    expect(refuseEndpointUrl(url, false)).toMatch(/^Webhooks cannot be sent to /)
  })

  test('names the kind of address it refuses', () => {
    expect(refuseEndpointUrl('https://127.1/', false)).toBe(
      'Webhooks cannot be sent to 127.0.0.1: it is a loopback address',
    )
    expect(refuseEndpointUrl('https://169.254.169.254/', false)).toMatch(/link-local/)
  })

  test('accepts public https URLs, by name or address', () => {
    expect(refuseEndpointUrl('https://hooks.example.com/threadwork', false)).toBeNull()
    expect(refuseEndpointUrl('https://93.184.215.14:8443/in', false)).toBeNull()
    expect(refuseEndpointUrl('https://[2606:4700::1111]/in', false)).toBeNull()
    expect(refuseEndpointUrl('https://172.32.0.1/', false)).toBeNull()
  })

  test('sends over https only, and never with credentials in the URL', () => {
    expect(refuseEndpointUrl('http://hooks.example.com/', false)).toMatch(/https only/)
    expect(refuseEndpointUrl('ftp://hooks.example.com/', false)).toMatch(/https only/)
    expect(refuseEndpointUrl('https://user:secret@hooks.example.com/', false)).toMatch(
      /user name or password/,
    )
    expect(refuseEndpointUrl('not a url', false)).toMatch(/full URL/)
  })

  test('WEBHOOKS_ALLOW_PRIVATE lets private targets in, and plain http only to loopback', () => {
    expect(refuseEndpointUrl('https://10.1.2.3/', true)).toBeNull()
    expect(refuseEndpointUrl('http://127.0.0.1:4000/hook', true)).toBeNull()
    expect(refuseEndpointUrl('http://localhost:4000/hook', true)).toBeNull()
    expect(refuseEndpointUrl('http://[::1]:4000/hook', true)).toBeNull()
    expect(refuseEndpointUrl('http://hooks.example.com/', true)).toMatch(/https only/)
    expect(refuseEndpointUrl('http://10.1.2.3/', true)).toMatch(/https only/)
  })
})

// Generating URLs is slow on a busy machine; the properties are cheap, the time is fast-check's.
const PROPERTY_TIMEOUT_MS = 60_000

describe('any URL', () => {
  const inRange = (base: number, prefix: number) =>
    fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => (base + offset) >>> 0)
  const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
  const forbiddenIPv4 = fc.oneof(
    inRange(0x7f000000, 8),
    inRange(0x0a000000, 8),
    inRange(0xac100000, 12),
    inRange(0xc0a80000, 16),
    inRange(0xa9fe0000, 16),
    inRange(0x64400000, 10),
  )
  /** The spellings WHATWG URL parsing reads as the same IPv4 address. */
  const spelled = (n: number) =>
    fc.constantFrom(
      octets(n).join('.'),
      String(n),
      `0x${n.toString(16)}`,
      `0${n.toString(8)}`,
      octets(n)
        .map((o) => `0x${o.toString(16)}`)
        .join('.'),
      `[::ffff:${octets(n).join('.')}]`,
    )

  test(
    'a forbidden IPv4 address is refused however it is spelled',
    () => {
      fc.assert(
        fc.property(
          forbiddenIPv4.chain((n) => spelled(n)),
          fc.constantFrom('/', '/hook', ':8443/in?x=1', '/a/b#c'),
          (host, path) => {
            expect(refuseEndpointUrl(`https://${host}${path}`, false)).toMatch(/^Webhooks cannot be sent to /)
          },
        ),
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  test(
    'an IPv4 literal is refused exactly when its address is forbidden',
    () => {
      fc.assert(
        fc.property(fc.ipV4(), (ip) => {
          const refusal = refuseEndpointUrl(`https://${ip}/`, false)
          expect(refusal === null).toBe(forbiddenAddressKind(ip) === null)
        }),
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  test(
    'an IPv6 literal is refused exactly when its address is forbidden',
    () => {
      fc.assert(
        fc.property(fc.ipV6(), (ip) => {
          const { hostname } = new URL(`https://[${ip}]/`)
          const refusal = refuseEndpointUrl(`https://[${ip}]/`, false)
          expect(refusal === null).toBe(forbiddenAddressKind(hostname) === null)
        }),
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  test(
    'any input answers null or a message, never throws',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.webUrl(), fc.string()), (url) => {
          const refusal = refuseEndpointUrl(url, false)
          expect(refusal === null || typeof refusal === 'string').toBe(true)
          if (refusal === null) expect(new URL(url).protocol).toBe('https:')
        }),
        { numRuns: 200 },
      )
    },
    PROPERTY_TIMEOUT_MS,
  )
})

describe('at delivery', () => {
  let server: http.Server
  let port: number
  let hits = 0
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      hits += 1
      response.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const resolvingTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  const message = { id: 'msg_1', body: '{}' }
  const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`

  test('a name that resolves to loopback is refused after DNS, and nothing is sent', async () => {
    // https, so the refusal must come from the lookup: the URL itself is fine.
    const attempt = await sendMessage({ url: `https://hooks.example.test:${port}/`, secret }, message, {
      allowPrivate: false,
      resolve: resolvingTo('127.0.0.1'),
    })
    expect(attempt).toMatchObject({ isSuccess: false, status: null })
    expect(attempt.excerpt).toBe('hooks.example.test resolves to 127.0.0.1, a loopback address')
    expect(hits).toBe(0)
  })

  test.each([['169.254.169.254'], ['10.0.0.7'], ['::ffff:127.0.0.1'], ['fd00::1']])(
    'a name resolving to %s is refused',
    async (address) => {
      const attempt = await sendMessage({ url: 'https://hooks.example.test/', secret }, message, {
        allowPrivate: false,
        resolve: resolvingTo(address),
      })
      expect(attempt.excerpt).toMatch(/^hooks\.example\.test resolves to /)
    },
  )

  test('one forbidden address among public ones is enough to refuse', async () => {
    const attempt = await sendMessage({ url: 'https://hooks.example.test/', secret }, message, {
      allowPrivate: false,
      resolve: resolvingTo('93.184.215.14', '127.0.0.1'),
    })
    expect(attempt.excerpt).toMatch(/resolves to 127\.0\.0\.1/)
  })

  test('an address literal is judged again at each delivery', async () => {
    const attempt = await sendMessage({ url: `https://127.0.0.1:${port}/`, secret }, message, {
      allowPrivate: false,
    })
    expect(attempt.excerpt).toMatch(/loopback/)
    expect(hits).toBe(0)
  })

  test('with private targets allowed, the checked address is the one connected to', async () => {
    const attempt = await sendMessage({ url: `http://localhost:${port}/`, secret }, message, {
      allowPrivate: true,
      resolve: resolvingTo('127.0.0.1'),
    })
    expect(attempt).toMatchObject({ isSuccess: true, status: 200, excerpt: 'ok' })
    expect(hits).toBe(1)
  })
})
