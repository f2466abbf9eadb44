import { afterEach, describe, expect, test, vi } from 'vitest'
import { resetEnvForTests } from '~/env.server'
import { callLoader } from '../../tests/helpers/route'
import { headers, loader, shouldRevalidate } from './pricing'

describe('/pricing loader', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    resetEnvForTests()
  })

  test('resolves every option’s checkout link from the configuration, most specific first', async () => {
    vi.stubEnv('CHECKOUT_URL', 'https://pay.example/any')
    vi.stubEnv('CHECKOUT_URL_YEARLY', 'https://pay.example/yearly')
    vi.stubEnv('CHECKOUT_URL_TIER_3_YEARLY', 'https://pay.example/t3-yearly')
    vi.stubEnv('CHECKOUT_URL_TIER_2_LIFETIME', 'https://pay.example/t2-lifetime')
    resetEnvForTests()

    const { status, data } = await callLoader(loader, { url: '/pricing?billing=lifetime' })
    expect(status).toBe(200)
    expect(data.checkoutUrls).toEqual({
      1: { yearly: 'https://pay.example/yearly', lifetime: 'https://pay.example/any' },
      2: { yearly: 'https://pay.example/yearly', lifetime: 'https://pay.example/t2-lifetime' },
      3: { yearly: 'https://pay.example/t3-yearly', lifetime: 'https://pay.example/any' },
    })
  })

  test('with nothing configured, no option has a link (the page says checkout is coming)', async () => {
    for (const name of ['CHECKOUT_URL', 'CHECKOUT_URL_YEARLY', 'CHECKOUT_URL_LIFETIME']) vi.stubEnv(name, '')
    for (const tier of [1, 2, 3]) {
      vi.stubEnv(`CHECKOUT_URL_TIER_${tier}_YEARLY`, '')
      vi.stubEnv(`CHECKOUT_URL_TIER_${tier}_LIFETIME`, '')
    }
    resetEnvForTests()

    const { data } = await callLoader(loader, { url: '/pricing' })
    expect(Object.values(data.checkoutUrls).flatMap((urls) => Object.values(urls))).toEqual(
      Array(6).fill(null),
    )
  })
})

describe('/pricing caching and revalidation', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    resetEnvForTests()
  })

  test('is cacheable for a minute in browsers and five in shared caches, with an ETag', async () => {
    const { headers: loaderHeaders } = await callLoader(loader, { url: '/pricing' })
    const result = new Headers(
      typeof headers === 'function'
        ? headers({
            loaderHeaders,
            parentHeaders: new Headers(),
            actionHeaders: new Headers(),
            errorHeaders: undefined,
          })
        : headers,
    )
    expect(result.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(result.get('ETag')).toMatch(/^W\/".+"$/)
  })

  test('the ETag follows the checkout configuration, which the build does not capture', async () => {
    const etag = async () => (await callLoader(loader, { url: '/pricing' })).headers.get('ETag')
    const before = await etag()
    expect(await etag()).toBe(before)
    vi.stubEnv('CHECKOUT_URL', 'https://pay.example/new')
    resetEnvForTests()
    expect(await etag()).not.toBe(before)
  })

  test('flipping ?billing= asks the server for nothing new', () => {
    const base = {
      currentParams: {},
      nextParams: {},
      defaultShouldRevalidate: true,
    }
    expect(
      shouldRevalidate({
        ...base,
        currentUrl: new URL('http://x/pricing?billing=yearly'),
        nextUrl: new URL('http://x/pricing?billing=lifetime'),
      }),
    ).toBe(false)
    expect(
      shouldRevalidate({
        ...base,
        currentUrl: new URL('http://x/support'),
        nextUrl: new URL('http://x/pricing?billing=lifetime'),
      }),
    ).toBe(true)
  })
})

describe('/pricing with Stripe', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    resetEnvForTests()
  })

  test('options with a Stripe price become forms with a CSRF token, and the page is private', async () => {
    vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_pricing')
    vi.stubEnv('STRIPE_PRICE_TIER_2_LIFETIME', 'price_t2_lifetime')
    vi.stubEnv('STRIPE_PRICE_TIER_3_YEARLY', 'price_t3_yearly')
    resetEnvForTests()

    const { data, headers: answer } = await callLoader(loader, { url: '/pricing' })
    expect(data.soldByStripe).toEqual({
      1: { yearly: false, lifetime: false },
      2: { yearly: false, lifetime: true },
      3: { yearly: true, lifetime: false },
    })
    expect(data.csrfToken).toEqual(expect.any(String))
    expect(answer.get('Cache-Control')).toBe('private, no-store')
  })

  test('a price id without the secret key sells nothing through Stripe', async () => {
    vi.stubEnv('STRIPE_SECRET_KEY', '')
    vi.stubEnv('STRIPE_PRICE_TIER_1_YEARLY', 'price_t1_yearly')
    resetEnvForTests()
    const { data } = await callLoader(loader, { url: '/pricing' })
    expect(data.soldByStripe[1].yearly).toBe(false)
    expect(data.csrfToken).toBeNull()
  })
})
