import { describe, expect, test } from 'vitest'
import { initials } from '~/components/avatar'

describe('initials', () => {
  test.each([
    ['Ada Lovelace', 'AL'],
    ['grace hopper', 'GH'],
    ['Grace Brewster Murray Hopper', 'GB'],
    ['Alan', 'A'],
    ['  ada   lovelace  ', 'AL'],
    ['émile zola', 'ÉZ'],
  ])('%j → %s', (name, expected) => {
    expect(initials(name)).toBe(expected)
  })

  test.each([null, undefined, '', '   '])('no usable name (%j) gives U', (name) => {
    expect(initials(name)).toBe('U')
  })
})
