import { test } from '@fast-check/vitest'
import { inArray } from 'drizzle-orm'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { webhookDeliveries } from '~/db/schema'
import { appendEvent, eventLogHead, readEventsAfter } from '~/events/log.server'
import {
  countUnreadMentions,
  listInboxMentions,
  listMentionsToEmail,
  listUnreadMentions,
  markAllMentionsRead,
} from '~/services/notifications.server'
import { addWebhookEndpoint } from '~/services/webhooks/endpoints.server'
import { runWebhookFanOutJob } from '~/services/webhooks/fan-out.server'
import { audienceOf, audiencesOf } from '~/streams/broadcaster.server'
import { commentFeed, taskFeed } from '~/streams/feeds.server'
import { createMentionNotification } from '../../../tests/helpers/factories'
import { type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { buildWorld, createPeople, modelVisible, viewersOf, world } from './workspace-worlds'

/**
 * What tells a person of a task without their asking (docs/product-rules.md §1), for the generated
 * worlds of ./workspace-worlds.ts: an event about a task reaches their task stream and its
 * discussion's stream, a webhook endpoint of theirs is sent it, and a mention of them on it is in
 * their inbox, the header's badge, the toasts and the mention e-mail — each exactly when the model
 * of `TASK_RULES.see` lets them see the task. Streams are asked through the feed that decides for
 * each connection (app/streams/feeds.server.ts), over the audiences the broadcaster reads.
 */

const db = database()
let people: UserRow[] = []
/** Each person's webhook endpoint, subscribed to task changes: endpoint id → person. */
const endpointOwners = new Map<string, number>()

beforeAll(async () => {
  people = await createPeople(db)
  for (const [person, row] of people.entries()) {
    const { id } = await addWebhookEndpoint(db, viewerOf(row), {
      url: `https://hooks${person}.example.com/threadwork`,
      events: ['task.updated'],
    })
    endpointOwners.set(id, person)
  }
})

describe('who is told of which task, across workspaces', () => {
  test.prop([world], { numRuns: 25 })(
    'streams, webhooks and the inbox tell exactly the model',
    async (generated) => {
      const { tasks, ids } = await buildWorld(db, people, generated)
      // A world cut short (while shrinking) leaves its mentions unread: the badge is counted from here.
      const badgeBefore = await Promise.all(people.map((row) => countUnreadMentions(db, viewerOf(row))))
      const after = await eventLogHead(db)
      for (const task of tasks) {
        await appendEvent(db, { topic: 'tasks', type: 'task-updated', taskId: task.id, payload: {} })
        await appendEvent(db, {
          topic: 'comments',
          type: 'comment-added',
          taskId: task.id,
          payload: { commentId: `comment-${task.id}` },
        })
        for (const recipient of people)
          await createMentionNotification(db, { recipientId: recipient.id, taskId: task.id })
      }
      const page = await readEventsAfter(db, { after, limit: 100 })
      const audiences = await audiencesOf(db, page)
      await runWebhookFanOutJob(db, {}, new Date())
      const delivered = await db
        .select({ endpointId: webhookDeliveries.endpointId, body: webhookDeliveries.body })
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.eventId,
            page.map((event) => event.id),
          ),
        )

      for (const { viewer, who, actor } of viewersOf(people)) {
        const wanted = modelVisible(tasks, viewer)
        const heard = (decide: (event: (typeof page)[number]) => unknown, topic: string) =>
          page
            .filter((event) => event.topic === topic && decide(event) === 'send')
            .map((event) => event.taskId)
            .sort()
        const onComments = heard(
          (event) => commentFeed(actor, event.taskId as string).decide(event, audienceOf(event, audiences)),
          'comments',
        )
        expect(onComments, `${who}: the discussion's stream`).toEqual(wanted)
        if (viewer === null || actor === null) continue
        const feed = taskFeed(actor)
        expect(
          heard((event) => feed.decide(event, audienceOf(event, audiences)), 'tasks'),
          `${who}: the task stream`,
        ).toEqual(wanted)
        const sent = delivered
          .filter((delivery) => endpointOwners.get(delivery.endpointId) === viewer)
          .map((delivery) => (JSON.parse(delivery.body) as { data: { id: string } }).data.id)
        expect(sent.sort(), `${who}: their webhook`).toEqual(wanted)

        const ofWorld = (mentions: { taskId: string }[]) =>
          mentions
            .map((mention) => mention.taskId)
            .filter((id) => ids.has(id))
            .sort()
        expect(ofWorld(await listInboxMentions(db, actor)), `${who}: the inbox`).toEqual(wanted)
        expect(ofWorld(await listUnreadMentions(db, actor)), `${who}: the toasts`).toEqual(wanted)
        expect(ofWorld(await listMentionsToEmail(db, actor)), `${who}: the mention e-mail`).toEqual(wanted)
        const before = badgeBefore[viewer] ?? 0
        expect(await countUnreadMentions(db, actor), `${who}: the badge`).toBe(before + wanted.length)
        expect(await markAllMentionsRead(db, actor, new Date()), `${who}: mark all read`).toBe(
          before + wanted.length,
        )
      }
    },
    60_000,
  )
})
