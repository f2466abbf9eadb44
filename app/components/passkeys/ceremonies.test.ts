import { describe, expect, test } from 'vitest'
import { isCancelled, isRefusedChoice, PasskeyError } from './ceremonies'

describe('which passkey failures a page reports', () => {
  test('the server refusing the passkey the person chose is reported, even from the autofill', () => {
    expect(
      isRefusedChoice(new PasskeyError('This passkey is not registered with Threadwork.', 'sign-in')),
    ).toBe(true)
  })

  test('a start nobody asked for is not: a busy server, or a browser refusing this origin', () => {
    expect(
      isRefusedChoice(new PasskeyError('Too many passkey requests. Try again later.', 'sign-in-options')),
    ).toBe(false)
    const refusedOrigin = Object.assign(new Error('127.0.0.1 is an invalid domain'), {
      name: 'SecurityError',
    })
    expect(isRefusedChoice(refusedOrigin)).toBe(false)
    expect(isCancelled(refusedOrigin)).toBe(false)
  })

  test('a closed dialog or a replaced request ends without a verdict', () => {
    for (const name of ['AbortError', 'NotAllowedError']) {
      expect(isCancelled(Object.assign(new Error('ended'), { name }))).toBe(true)
    }
  })
})
