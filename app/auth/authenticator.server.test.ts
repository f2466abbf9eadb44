import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { readFormData } from '~/utils/form-data.server'
import { createUser, TEST_PASSWORD } from '../../tests/helpers/factories'
import { buildRequest } from '../../tests/helpers/route'
import { authenticateWithPassword } from './authenticator.server'

/**
 * The route validates the sign-in form; the remix-auth strategy receives that value and neither
 * parses the body again nor validates it a second time.
 */

describe('authenticateWithPassword', () => {
  test('signs in with the value the route validated, reading the form the route already read', async () => {
    const user = await createUser(database(), { email: 'strategy@example.test' })
    // The strategy takes the route's value as it is: a form it would have refused on its own
    // (no password) proves it does not validate a second time.
    const request = buildRequest({ url: '/login', form: { email: ' STRATEGY@example.test ' } }, 'POST')
    const form = await readFormData(request)

    const signedIn = await authenticateWithPassword(
      request,
      { email: 'strategy@example.test', password: TEST_PASSWORD },
      '198.51.100.80',
    )

    expect(signedIn).toMatchObject({ id: user.id, email: 'strategy@example.test' })
    // One parse of the body: the strategy got the same FormData, not a second read.
    expect(await readFormData(request)).toBe(form)
    expect(request.bodyUsed).toBe(true)
  })
})
