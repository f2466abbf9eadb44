import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { users } from '~/db/schema'
import { Conflict, Unauthorized } from '~/services/errors'
import { readFormData } from '~/utils/form-data.server'
import { createUser, TEST_PASSWORD } from '../../tests/helpers/factories'
import { buildRequest } from '../../tests/helpers/route'
import { authenticateNewAccount, authenticateWithPassword } from './authenticator.server'

/**
 * The password sign-in and sign-up read their forms themselves, validate them and give them to
 * the account service. The body is parsed once per request, whoever asks first (the CSRF check,
 * or the sign-in).
 */

const IP = '198.51.100.80'
const post = (url: string, form: Record<string, string>) => buildRequest({ url, form }, 'POST')

describe('authenticateWithPassword', () => {
  test('signs in with the form it reads, validated by the sign-in schema', async () => {
    const user = await createUser(database(), { email: 'strategy@example.test' })
    const request = post('/login', {
      email: ' STRATEGY@example.test ',
      password: TEST_PASSWORD,
      redirect: '/task',
    })

    const attempt = await authenticateWithPassword(request, IP)

    expect(attempt.user).toMatchObject({ id: user.id, email: 'strategy@example.test' })
    // The schema's value, not the raw field: the e-mail came trimmed and lower-cased.
    expect(attempt).toMatchObject({ input: { email: 'strategy@example.test', redirect: '/task' } })
  })

  test('reads the form the CSRF check already parsed, never the body a second time', async () => {
    await createUser(database(), { email: 'once@example.test' })
    const request = post('/login', { email: 'once@example.test', password: TEST_PASSWORD })
    const form = await readFormData(request)
    expect(request.bodyUsed).toBe(true)

    // A second parse of the used body would fail.
    const attempt = await authenticateWithPassword(request, IP)

    expect(attempt.user).not.toBeNull()
    expect(await readFormData(request)).toBe(form)
  })

  test('a form the schema refuses comes back with its field errors, and nobody is signed in', async () => {
    const request = post('/login', { email: 'not-an-address', password: '' })

    const attempt = await authenticateWithPassword(request, IP)

    expect(attempt).toMatchObject({ user: null, refusal: null })
    const { submission } = attempt
    if (submission.status !== 'error') throw new Error('the form should not have validated')
    expect(Object.keys(submission.error ?? {})).toEqual(expect.arrayContaining(['email', 'password']))
  })

  test("the service's refusal comes back with the submission, to answer above the form", async () => {
    await createUser(database(), { email: 'wrong@example.test' })
    const request = post('/login', { email: 'wrong@example.test', password: 'not the password' })

    const attempt = await authenticateWithPassword(request, IP)

    expect(attempt.user).toBeNull()
    expect(attempt).toMatchObject({ refusal: expect.any(Unauthorized) })
    expect(attempt.submission.payload).toMatchObject({ email: 'wrong@example.test' })
  })

  test('a body that is not a form is the client’s mistake (415), not a refusal', async () => {
    const request = buildRequest({ url: '/login', json: { email: 'x@example.test' } }, 'POST')
    await expect(authenticateWithPassword(request, IP)).rejects.toMatchObject({ init: { status: 415 } })
  })
})

describe('authenticateNewAccount', () => {
  test('creates the account the sign-up form describes', async () => {
    const request = post('/signup', {
      name: 'Strategy Person',
      email: 'new-strategy@example.test',
      password: 'a long enough password',
    })

    const attempt = await authenticateNewAccount(request, IP)

    expect(attempt.user).toMatchObject({ email: 'new-strategy@example.test' })
    const [row] = await database().select().from(users).where(eq(users.email, 'new-strategy@example.test'))
    expect(row?.name).toBe('Strategy Person')
  })

  test('an address already taken is a refusal, not a second account', async () => {
    await createUser(database(), { email: 'taken@example.test' })
    const request = post('/signup', {
      name: 'Someone',
      email: 'taken@example.test',
      password: 'a long enough password',
    })

    const attempt = await authenticateNewAccount(request, IP)

    expect(attempt).toMatchObject({ user: null, refusal: expect.any(Conflict) })
  })
})
