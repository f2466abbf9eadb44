import { availableParallelism } from 'node:os'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { clientConfig, InvalidEnvError, parseEnv, resetEnvForTests } from '~/env.server'

describe('parseEnv', () => {
  test('an empty environment gets the documented defaults', () => {
    const env = parseEnv({})
    expect(env.BASE_URL).toBe('http://localhost:3000')
    expect(env.DATABASE_URL).toBe('file:data/app.db')
    expect(env.PORT).toBe(3000)
    expect(env.NODE_ENV).toBe('development')
    expect(env.LOG_REQUESTS).toBe(true)
    expect(env.FAST_PATHS).toBe(true)
    expect(env.isProduction).toBe(false)
    // Without a configured secret a random one still signs cookies.
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32)
  })

  test('a trailing slash on BASE_URL is dropped so paths can be appended', () => {
    expect(parseEnv({ BASE_URL: 'https://threadwork.dev/' }).BASE_URL).toBe('https://threadwork.dev')
  })

  test.each([
    ['BASE_URL', 'not a url'],
    ['BASE_URL', 'ftp://threadwork.dev'],
    ['CHECKOUT_URL_TIER_2_YEARLY', 'checkout-here'],
    ['CHECKOUT_SUCCESS_URL', 'javascript:alert(1)'],
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://db/app'],
    ['SESSION_SECRET', 'too-short'],
    ['WEB_CONCURRENCY', '0'],
    ['WEB_CONCURRENCY', 'two'],
    ['EVENT_STREAM_POLL_MS', '10'],
    ['FAST_PATHS', 'false'],
  ])('a bad %s (%j) stops start-up with a message naming it', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(InvalidEnvError)
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `))
  })

  test('every bad variable is reported at once', () => {
    let message = ''
    try {
      parseEnv({ BASE_URL: 'nope', PORT: '-1' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('BASE_URL')
    expect(message).toContain('PORT')
  })

  test('an empty string counts as unset', () => {
    const env = parseEnv({ BASE_URL: '', PORT: '', CHECKOUT_URL_TIER_2_YEARLY: '', DATABASE_URL: '' })
    expect(env.BASE_URL).toBe('http://localhost:3000')
    expect(env.PORT).toBe(3000)
    expect(env.DATABASE_URL).toBe('file:data/app.db')
    expect(env.CHECKOUT_URL_TIER_2_YEARLY).toBeUndefined()
  })

  test('FAST_PATHS=off sends everything through the router', () => {
    expect(parseEnv({ FAST_PATHS: 'off' }).FAST_PATHS).toBe(false)
    expect(parseEnv({ FAST_PATHS: 'on' }).FAST_PATHS).toBe(true)
  })

  test('production is recognised', () => {
    expect(parseEnv({ NODE_ENV: 'production' }).isProduction).toBe(true)
  })

  test('production serves from a worker per core unless WEB_CONCURRENCY says otherwise; elsewhere one process', () => {
    expect(parseEnv({ NODE_ENV: 'production' }).WEB_CONCURRENCY).toBe(availableParallelism())
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(1)
    expect(parseEnv({ NODE_ENV: 'test' }).WEB_CONCURRENCY).toBe(1)
    expect(parseEnv({ NODE_ENV: 'production', WEB_CONCURRENCY: '3' }).WEB_CONCURRENCY).toBe(3)
    expect(parseEnv({ WEB_CONCURRENCY: '2' }).WEB_CONCURRENCY).toBe(2)
  })
})

describe('clientConfig', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    resetEnvForTests()
  })

  test('has the client configuration’s shape and only what the browser may know', () => {
    vi.stubEnv('BASE_URL', 'https://threadwork.dev')
    vi.stubEnv('CHECKOUT_SUCCESS_URL', 'https://threadwork.dev/payment/success')
    vi.stubEnv('CHECKOUT_URL_TIER_2_YEARLY', 'https://pay.example/t2y')
    vi.stubEnv('CHECKOUT_URL_LIFETIME', 'https://pay.example/lifetime')
    vi.stubEnv('SESSION_SECRET', 'a-secret-that-is-at-least-32-characters-long')
    resetEnvForTests()

    const config = clientConfig()
    expect(config).toEqual({
      baseUrl: 'https://threadwork.dev',
      successUrl: 'https://threadwork.dev/payment/success',
      checkout: {
        public: undefined,
        yearly: undefined,
        lifetime: 'https://pay.example/lifetime',
        tiers: {
          1: { yearly: undefined, lifetime: undefined },
          2: { yearly: 'https://pay.example/t2y', lifetime: undefined },
          3: { yearly: undefined, lifetime: undefined },
        },
      },
      analytics: undefined,
    })
    expect(JSON.stringify(config)).not.toContain('a-secret-that-is-at-least-32-characters-long')
  })

  test('analytics appear only when a Plausible domain is configured', () => {
    vi.stubEnv('PLAUSIBLE_DOMAIN', 'threadwork.dev')
    resetEnvForTests()
    expect(clientConfig().analytics).toEqual({
      domain: 'threadwork.dev',
      scriptUrl: 'https://plausible.io/js/script.js',
    })
  })
})
