import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { notifications } from '~/db/schema'
import {
  createTeamWorkspace,
  createUser,
  createComment as insertComment,
  shareTask as insertShares,
  createTask as insertTask,
  removeMember,
} from '../../tests/helpers/factories'
import { NewCommentSchema } from './comment-schemas'
import type { Author } from './comment-views.server'
import { addComment } from './comments.server'
import { NotFound } from './errors'
import { mentionableUsers } from './mentions.server'

/**
 * Who may be mentioned on a task of a team's workspace (docs/product-rules.md §1; the personal
 * workspace's cases are comments.server.test.ts's). The world: Tom owns the team, Ada administers
 * it, Carl and Mia and Nia are members, Fred was one until he was removed. Carl's task is shared
 * with Gina and Hal (verified, outside the team: its guests) and Uma (unverified), assigned to
 * Mia, and discussed by Ada and by Fred (before he left); Tom's comment on it was deleted.
 */

const db = database()

type UserRow = Awaited<ReturnType<typeof createUser>>

function actorOf(user: UserRow): Author {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    image: user.image,
  }
}

const people = {} as Record<
  'tom' | 'ada' | 'carl' | 'mia' | 'nia' | 'fred' | 'gina' | 'hal' | 'uma' | 'eve',
  UserRow
>
let teamId = ''
let taskId = ''
let publicTaskId = ''
let formerCreatorsTaskId = ''

beforeAll(async () => {
  for (const [key, name] of [
    ['tom', 'Tom Owner'],
    ['ada', 'Ada Admin'],
    ['carl', 'Carl Creator'],
    ['mia', 'Mia Member'],
    ['nia', 'Nia Nobody'],
    ['fred', 'Fred Former'],
    ['gina', 'Gina Guest'],
    ['hal', 'Hal Guest'],
    ['eve', 'Eve Stranger'],
  ] as const) {
    people[key] = await createUser(db, { name })
  }
  people.uma = await createUser(db, { name: 'Uma Unverified', emailVerifiedAt: null })
  const team = await createTeamWorkspace(db, {
    ownerId: people.tom.id,
    members: [
      { userId: people.ada.id, role: 'admin' },
      { userId: people.carl.id, role: 'member' },
      { userId: people.mia.id, role: 'member' },
      { userId: people.nia.id, role: 'member' },
      { userId: people.fred.id, role: 'member' },
    ],
  })
  teamId = team.id
  taskId = (await insertTask(db, { userId: people.carl.id, workspaceId: teamId, assigneeId: people.mia.id }))
    .id
  await insertShares(db, taskId, [people.gina.email, people.hal.email, people.uma.email])
  await insertComment(db, { taskId, userId: people.ada.id })
  await insertComment(db, { taskId, userId: people.fred.id })
  await insertComment(db, { taskId, userId: people.tom.id, deletedAt: new Date() })
  publicTaskId = (await insertTask(db, { userId: people.carl.id, workspaceId: teamId, isPublic: true })).id
  await insertShares(db, publicTaskId, [people.gina.email])
  await insertComment(db, { taskId: publicTaskId, userId: people.eve.id })
  formerCreatorsTaskId = (await insertTask(db, { userId: people.fred.id, workspaceId: teamId })).id
  await insertShares(db, formerCreatorsTaskId, [people.gina.email])
  await removeMember(db, teamId, people.fred.id)
})

const names = async (viewer: UserRow | null, task: string) =>
  (await mentionableUsers(db, viewer ? actorOf(viewer) : null, task)).map((user) => user.name).sort()

describe('in a team workspace', () => {
  test.each([
    [
      'the owner',
      'tom',
      ['Ada Admin', 'Carl Creator', 'Gina Guest', 'Hal Guest', 'Mia Member', 'Nia Nobody'],
    ],
    ['an admin', 'ada', ['Carl Creator', 'Gina Guest', 'Hal Guest', 'Mia Member', 'Nia Nobody', 'Tom Owner']],
    [
      'the creator',
      'carl',
      ['Ada Admin', 'Gina Guest', 'Hal Guest', 'Mia Member', 'Nia Nobody', 'Tom Owner'],
    ],
    ['a member', 'nia', ['Ada Admin', 'Carl Creator', 'Gina Guest', 'Hal Guest', 'Mia Member', 'Tom Owner']],
  ] as const)(
    '%s mentions the other members and the verified guests, never a former member',
    async (_, who, expected) => {
      expect(await names(people[who], taskId)).toEqual(expected)
    },
  )

  test('a guest mentions the creator, the assignee, the other guests and the discussion, never the member list', async () => {
    // Carl created it, Mia is assigned it, Ada commented, Hal is the other guest; Tom's comment was
    // deleted, Fred commented but left, Nia is only a member.
    expect(await names(people.gina, taskId)).toEqual(['Ada Admin', 'Carl Creator', 'Hal Guest', 'Mia Member'])
  })

  test('whom a guest may mention is only ever its creator, assignee, guests or commenters', async () => {
    const inTheTask = new Set([people.carl.id, people.mia.id, people.ada.id, people.hal.id, people.gina.id])
    for (const guest of [people.gina, people.hal]) {
      const mentionable = await mentionableUsers(db, actorOf(guest), taskId)
      expect(mentionable.length).toBeGreaterThan(0)
      for (const user of mentionable) expect(inTheTask.has(user.id), user.name).toBe(true)
      expect(mentionable.map((user) => user.id)).not.toContain(guest.id)
    }
  })

  test('a creator who left the team is not offered: a mention never grants access', async () => {
    expect(await names(people.gina, formerCreatorsTaskId)).toEqual([])
    expect(await names(people.mia, formerCreatorsTaskId)).toEqual([
      'Ada Admin',
      'Carl Creator',
      'Gina Guest',
      'Nia Nobody',
      'Tom Owner',
    ])
  })

  test.each([
    ['a member', 'mia'],
    ['a guest', 'gina'],
    ['a stranger', 'eve'],
    ['a former member', 'fred'],
  ] as const)('%s may mention nobody on a public task', async (_, who) => {
    expect(await names(people[who], publicTaskId)).toEqual([])
  })

  test('a former member, a stranger and the unverified sharee are told the private task does not exist', async () => {
    for (const who of [people.fred, people.eve, people.uma]) {
      await expect(mentionableUsers(db, actorOf(who), taskId)).rejects.toThrow(NotFound)
    }
  })

  test('a guest naming a member outside the task notifies nobody; naming the assignee notifies her', async () => {
    const { notified } = await addComment(
      db,
      actorOf(people.gina),
      NewCommentSchema.parse({
        taskId,
        content: '@Nia Nobody and @Tom Owner, look',
        mentions: [people.nia.email],
      }),
    )
    expect(notified).toBe(0)
    const nobody = await db.select().from(notifications).where(eq(notifications.recipientId, people.nia.id))
    expect(nobody).toEqual([])
    const assignee = await addComment(
      db,
      actorOf(people.gina),
      NewCommentSchema.parse({ taskId, content: '@Mia Member, can you look?' }),
    )
    expect(assignee.notified).toBe(1)
    const [notification] = await db
      .select()
      .from(notifications)
      .where(eq(notifications.recipientId, people.mia.id))
    expect(notification).toMatchObject({ type: 'mention', taskId, fromUserId: people.gina.id })
  })
})
