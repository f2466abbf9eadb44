import { describe, expect, test } from 'vitest'
import { withSearchParams } from './search-params'

describe('withSearchParams', () => {
  test('sets a new param at the end and keeps the others', () => {
    expect(withSearchParams({ pathname: '/task', search: '?filter=all' }, { task: 't1' })).toBe(
      '/task?filter=all&task=t1',
    )
  })

  test('replaces a param where it stands', () => {
    expect(withSearchParams({ pathname: '/task', search: '?task=t0&filter=all' }, { task: 't1' })).toBe(
      '/task?task=t1&filter=all',
    )
  })

  test('null removes a param, and no `?` is left when nothing remains', () => {
    expect(
      withSearchParams({ pathname: '/task', search: '?task=t1&view=edit' }, { task: null, view: null }),
    ).toBe('/task')
    expect(withSearchParams({ pathname: '/dashboard', search: '' }, { view: null })).toBe('/dashboard')
  })

  test('applies the changes in order', () => {
    expect(
      withSearchParams(
        { pathname: '/task', search: '?task=t1&view=reply&comment=c1' },
        { view: 'edit-comment', comment: 'c2' },
      ),
    ).toBe('/task?task=t1&view=edit-comment&comment=c2')
  })

  test('takes a path with its search, as a form sends its return address', () => {
    expect(withSearchParams('/task?task=t1&view=edit&page=2', { view: null })).toBe('/task?task=t1&page=2')
    expect(withSearchParams('/docs/intro', { task: 't1' })).toBe('/docs/intro?task=t1')
  })

  test('encodes values as the URL needs them', () => {
    expect(withSearchParams({ pathname: '/task', search: '' }, { q: 'a&b c' })).toBe('/task?q=a%26b+c')
  })
})
