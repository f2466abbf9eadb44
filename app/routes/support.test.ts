import { count, like } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { clientAddressContext } from '~/auth/client-ip.server'
import { database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { callAction, callLoader, cookieHeaderFrom } from '../../tests/helpers/route'
import { action, headers, loader } from './support'

/** Each test writes from its own address, so the rate limit of one never touches another. */
function fromAddress(ip: string) {
  const context = new RouterContextProvider()
  context.set(clientAddressContext, ip)
  return context
}

async function outboxRowsAbout(marker: string) {
  return database()
    .select()
    .from(emailOutbox)
    .where(like(emailOutbox.text, `%${marker}%`))
}

describe('/support loader', () => {
  test('shows the configured support address and gives the form a CSRF token', async () => {
    const { status, data, headers } = await callLoader(loader, { url: '/support' })
    expect(status).toBe(200)
    expect(data.supportEmail).toBe('support@threadwork.dev')
    expect(data.csrfToken).toMatch(/^[0-9a-z]+\.[\w-]+$/)
    // The page holds this visitor's token: no shared cache may keep it.
    expect(headers.get('Cache-Control')).toBe('private, no-store')
  })

  test('the page is never cached, and a 429 passes its Retry-After on to the browser', () => {
    const documentHeaders = (actionHeaders: HeadersInit) =>
      new Headers(
        typeof headers === 'function'
          ? headers({
              loaderHeaders: new Headers(),
              parentHeaders: new Headers(),
              actionHeaders: new Headers(actionHeaders),
              errorHeaders: undefined,
            })
          : headers,
      )
    expect(documentHeaders({}).get('Cache-Control')).toBe('private, no-store')
    expect(documentHeaders({ 'Retry-After': '1200' }).get('Retry-After')).toBe('1200')
  })
})

describe('/support action', () => {
  test('queues an e-mail to support with the sender to reply to, HTML escaped, then confirms', async () => {
    const result = await callAction(action, {
      url: '/support',
      context: fromAddress('203.0.113.10'),
      form: {
        name: 'Ada <b>Lovelace</b>',
        email: 'ada@example.com',
        message: 'Hello <script>alert("x")</script> & goodbye — marker-escaping',
      },
    })
    expect(result.status).toBe(302)
    expect(result.location).toBe('/support')
    // The success toast rides on a cookie, so it shows after the redirect with or without JS.
    expect(cookieHeaderFrom(result.headers)).toMatch(/^tw_toast=/)

    const rows = await outboxRowsAbout('marker-escaping')
    expect(rows).toHaveLength(1)
    const [email] = rows
    expect(email).toMatchObject({
      to: 'support@threadwork.dev',
      subject: 'Support request from Ada <b>Lovelace</b>',
      status: 'pending',
    })
    expect(email?.text).toContain('Reply to: ada@example.com')
    expect(email?.text).toContain('Hello <script>alert("x")</script> & goodbye')
    expect(email?.html).toContain('<a href="mailto:ada@example.com">ada@example.com</a>')
    expect(email?.html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;')
    expect(email?.html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; goodbye')
    expect(email?.html).not.toContain('<script>')
    expect(email?.html).not.toContain('<b>')
  })

  test('keeps line breaks out of the subject, where they could forge mail headers', async () => {
    await callAction(action, {
      url: '/support',
      context: fromAddress('203.0.113.11'),
      form: {
        name: 'Eve\r\nBcc: all@example.com',
        email: 'eve@example.com',
        message: 'marker-subject header test',
      },
    })
    const [email] = await outboxRowsAbout('marker-subject')
    expect(email?.subject).toBe('Support request from Eve Bcc: all@example.com')
  })

  test('bad input: 400 with an error next to each field, the values kept, and nothing queued', async () => {
    const before = await database().select({ n: count() }).from(emailOutbox)
    const result = await callAction(action, {
      url: '/support',
      context: fromAddress('203.0.113.12'),
      form: { name: '  ', email: 'not-an-address', message: 'short' },
    })
    expect(result.status).toBe(400)
    expect(result.headers.get('Cache-Control')).toBe('no-store')
    const reply = result.data.result
    expect(reply.error).toEqual({
      name: ['Please tell us your name'],
      email: ['Please give a valid e-mail address'],
      message: ['Please write at least 10 characters'],
    })
    // What the form renders again, so nothing typed is lost.
    expect(reply.initialValue).toMatchObject({ email: 'not-an-address', message: 'short' })
    const after = await database().select({ n: count() }).from(emailOutbox)
    expect(after[0]?.n).toBe(before[0]?.n)
  })

  test('a missing field is an error too, not a crash', async () => {
    const result = await callAction(action, {
      url: '/support',
      context: fromAddress('203.0.113.13'),
      form: { email: 'ada@example.com' },
    })
    expect(result.status).toBe(400)
    expect(Object.keys(result.data.result.error ?? {}).sort()).toEqual(['message', 'name'])
  })

  test('five messages an hour per address: the sixth gets 429 with Retry-After and is not queued', async () => {
    const context = fromAddress('198.51.100.7')
    const send = (n: number) =>
      callAction(action, {
        url: '/support',
        context,
        form: {
          name: 'Grace Hopper',
          email: 'grace@example.com',
          message: `marker-limit message number ${n}`,
        },
      })
    for (let n = 1; n <= 5; n++) expect((await send(n)).status).toBe(302)

    const sixth = await send(6)
    expect(sixth.status).toBe(429)
    const retryAfter = Number(sixth.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(3500)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect(sixth.data.result.error?.['']?.[0]).toMatch(
      /several messages in the last hour.*try again in 60 minutes/i,
    )
    // The form keeps what was typed.
    expect(sixth.data.result.initialValue).toMatchObject({ message: 'marker-limit message number 6' })

    const rows = await outboxRowsAbout('marker-limit')
    expect(rows).toHaveLength(5)
    expect(rows.some((row) => row.text.includes('number 6'))).toBe(false)

    // Another visitor is not held back by this one.
    const other = await callAction(action, {
      url: '/support',
      context: fromAddress('198.51.100.8'),
      form: { name: 'Alan Turing', email: 'alan@example.com', message: 'marker-other a different visitor' },
    })
    expect(other.status).toBe(302)
    expect(await outboxRowsAbout('marker-other')).toHaveLength(1)
  })
})
