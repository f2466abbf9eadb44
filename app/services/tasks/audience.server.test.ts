import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { readAudiences } from './audience.server'
import { ruleHolds } from './rule.server'

/** The visibility rule of tasks (docs/product-rules.md §1), as event streams apply it per subscriber. */

const owner = { id: 'owner', email: 'ada@example.test', emailVerified: true }
// In the owner's personal workspace: its one member and admin.
const audience = {
  ownerId: 'owner',
  workspaceId: 'owner',
  isPublic: false,
  sharedWith: ['grace@example.test'],
  members: ['owner'],
  admins: ['owner'],
}

describe("ruleHolds('see'), as streams decide over an audience", () => {
  test.each([
    ['the owner', owner, true],
    [
      'a person it is shared with, verified',
      { id: 'g', email: 'Grace@Example.test', emailVerified: true },
      true,
    ],
    [
      'a person it is shared with, unverified',
      { id: 'g', email: 'grace@example.test', emailVerified: false },
      false,
    ],
    ['a stranger', { id: 's', email: 'eve@example.test', emailVerified: true }, false],
    ['a visitor', null, false],
  ])('a private task: %s → %s', (_label, viewer, expected) => {
    expect(ruleHolds('see', audience, viewer)).toBe(expected)
  })

  test('a public task: everyone, visitors too', () => {
    expect(ruleHolds('see', { ...audience, isPublic: true }, null)).toBe(true)
  })
})

test('readAudiences reads the owner, workspace, publicity, shares and members of many tasks at once, and skips missing ones', async () => {
  const db = database()
  const ada = await createUser(db)
  const shared = await createTask(db, { userId: ada.id })
  await shareTask(db, shared.id, ['Grace@example.test', 'ken@example.test'])
  const open = await createTask(db, { userId: ada.id, isPublic: true })
  const audiences = await readAudiences(db, [shared.id, open.id, 'no-such-task'])
  const personal = { workspaceId: ada.id, members: [ada.id], admins: [ada.id] }
  expect(audiences.get(shared.id)).toEqual({
    ownerId: ada.id,
    isPublic: false,
    sharedWith: expect.arrayContaining(['grace@example.test', 'ken@example.test']),
    ...personal,
  })
  expect(audiences.get(open.id)).toEqual({ ownerId: ada.id, isPublic: true, sharedWith: [], ...personal })
  expect(audiences.has('no-such-task')).toBe(false)
  expect(await readAudiences(db, [])).toEqual(new Map())
})
