import { expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { webhookEndpoints } from '~/db/schema'
import { createUser } from '../../../tests/helpers/factories'
import { getQueues } from './queues.server'

const db = database()

test('paused webhook endpoints are listed with their owner and reason, the address without its query', async () => {
  const owner = await createUser(db)
  const endpoint = (url: string, status: 'active' | 'paused', pausedReason: string | null = null) => ({
    userId: owner.id,
    url,
    secret: 'whsec_test',
    events: ['task.created'],
    status,
    pausedReason,
    cursor: 0,
  })
  await db
    .insert(webhookEndpoints)
    .values([
      endpoint('https://hooks.example.test/in?key=s3cret', 'paused', 'Deliveries failed for a day'),
      endpoint('https://hooks.example.test/mine', 'paused'),
      endpoint('https://hooks.example.test/live', 'active'),
    ])
  const { pausedEndpoints } = await getQueues(db)
  const listed = pausedEndpoints.filter((row) => row.ownerId === owner.id)
  expect(
    listed
      .map(({ url, reason, ownerEmail }) => ({ url, reason, ownerEmail }))
      .sort((a, b) => a.url.localeCompare(b.url)),
  ).toEqual([
    { url: 'https://hooks.example.test/in', reason: 'Deliveries failed for a day', ownerEmail: owner.email },
    { url: 'https://hooks.example.test/mine', reason: null, ownerEmail: owner.email },
  ])
  expect(JSON.stringify(pausedEndpoints)).not.toContain('s3cret')
})
