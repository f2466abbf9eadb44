import { describe, expect, it } from 'vitest'
import { workerDatabaseUrl } from './cluster'

describe('workerDatabaseUrl', () => {
  it('gives every worker after the first its own embedded replica beside the configured one', () => {
    const url = 'file:/data/replica.db'
    expect(workerDatabaseUrl(url, true, 0)).toBe(url)
    expect(workerDatabaseUrl(url, true, 1)).toBe('file:/data/replica.worker-1.db')
    expect(workerDatabaseUrl(url, true, 2)).toBe('file:/data/replica.worker-2.db')
  })

  it('keeps query parameters and names without an extension', () => {
    expect(workerDatabaseUrl('file:data/replica?mode=rwc', true, 1)).toBe(
      'file:data/replica.worker-1?mode=rwc',
    )
    expect(workerDatabaseUrl('file:./data.d/replica', true, 1)).toBe('file:./data.d/replica.worker-1')
  })

  it('shares a plain file and a server between every worker', () => {
    expect(workerDatabaseUrl('file:/data/app.db', false, 1)).toBe('file:/data/app.db')
    expect(workerDatabaseUrl('http://127.0.0.1:8080', true, 1)).toBe('http://127.0.0.1:8080')
  })
})
