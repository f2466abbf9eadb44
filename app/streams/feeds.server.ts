import type { Database } from '~/db/client.server'
import { isReplica } from '~/db/replicas.server'
import { canResumeAfter, type LoggedEvent, readEventsAfter } from '~/events/log.server'
import type { Actor, Viewer } from '~/services/session-user'
import { ruleHolds, type TaskAudience } from '~/services/tasks/rule.server'
import { eventStreamEventsSent } from '~/utils/metrics.server'
import { audienceOf, audiencesOf, type Broadcaster } from './broadcaster.server'
import { controlFrame, type EventSink, frameOf } from './event-stream.server'

/**
 * What one person is told of the log. Access is decided for every event from its task's audience
 * as it is now, so a task made private or unshared stops flowing at once to those who lost it.
 */
export type Feed = {
  /** Only the events of this task are read when catching up. */
  taskId?: string
  decide(event: LoggedEvent, audience: TaskAudience | undefined): Verdict
}

type Verdict = 'send' | 'skip' | { endWith: Buffer }

/**
 * Every feed's first question: is this an event about one person, and are they the viewer? All of
 * their sessions just ended (an admin disabled the account or ended its sessions): the stream ends
 * now, on every worker and instance, as the log reaches them, instead of at the next session check
 * (event-streams.server.ts). They are no longer in a workspace: `onAccessChanged` says what the
 * feed does, as no event of that workspace's tasks will reach them to say so.
 */
function accountVerdict(event: LoggedEvent, viewer: Viewer, onAccessChanged: Verdict): Verdict | null {
  if (event.topic !== 'accounts') return null
  if (!viewer || event.payload.userId !== viewer.id) return 'skip'
  return event.type === 'sessions-ended' ? { endWith: controlFrame('signed-out', event.id) } : onAccessChanged
}

/**
 * `GET /api/events/tasks`: changes to tasks the person may see, their own mentions, and
 * `access-changed` when they are no longer in a workspace, for their open lists to load again.
 */
export function taskFeed(viewer: Actor): Feed {
  return {
    decide(event, audience) {
      const aboutAPerson = accountVerdict(event, viewer, 'send')
      if (aboutAPerson) return aboutAPerson
      if (!audience || !ruleHolds('see', audience, viewer)) return 'skip'
      if (event.topic === 'tasks') return 'send'
      return event.type === 'mention' && event.payload.recipientId === viewer.id ? 'send' : 'skip'
    },
  }
}

/**
 * `GET /api/events/comments?taskId=`: one task's discussion. When the task is deleted the stream
 * says so and ends; when the person loses sight of it, it ends with `gone`, the stream's
 * 'Task not found', which does not tell a deletion from an unsharing.
 */
export function commentFeed(viewer: Viewer, taskId: string): Feed {
  return {
    taskId,
    decide(event, audience) {
      // A discussion lost with a workspace: the page reloads on the task stream's `access-changed`
      // and its modal says the task is gone; the task's next event ends this stream with `gone`.
      const aboutAPerson = accountVerdict(event, viewer, 'skip')
      if (aboutAPerson) return aboutAPerson
      if (event.taskId !== taskId) return 'skip'
      const mayHear = audience !== undefined && ruleHolds('see', audience, viewer)
      if (!mayHear) return { endWith: controlFrame('gone', event.id, { taskId }) }
      if (event.type === 'task-deleted') return { endWith: frameOf(event) }
      return event.topic === 'comments' && event.type !== 'mention' ? 'send' : 'skip'
    },
  }
}

/** Live events that may wait while a resuming stream reads what it missed. */
const MAX_WAITING_EVENTS = 10_000
const PAGE_SIZE = 500

/**
 * Sends `feed` on `stream`: what was missed after `resumeAfter` (from `Last-Event-ID` or
 * `?after=`), in order, then live events. A cursor the log no longer reaches gets `reset`: the
 * client refetches. A cursor ahead of this instance's log — a client that was connected to an
 * instance whose replica was further along — is caught up to, never reset on a replica: it syncs,
 * and if still behind keeps the client's cursor and sends only what comes after it. Returns the
 * function that stops following.
 */
export async function follow(
  db: Database,
  broadcaster: Broadcaster,
  stream: EventSink,
  feed: Feed,
  resumeAfter: number | null,
) {
  let waiting: [LoggedEvent, TaskAudience | undefined][] | null = []
  /** Events up to here the client already has. */
  let known = 0
  const deliver = (event: LoggedEvent, audience: TaskAudience | undefined) => {
    if (stream.isClosed || event.id <= known) return
    const verdict = feed.decide(event, audience)
    if (verdict === 'skip') return
    if (verdict === 'send') {
      eventStreamEventsSent.inc({ feed: feed.taskId === undefined ? 'tasks' : 'comments' })
      return stream.send(frameOf(event))
    }
    stream.send(verdict.endWith)
    stream.end()
  }
  const { cursor, unsubscribe } = await broadcaster.subscribe({
    receive(event, audience) {
      if (!waiting) return deliver(event, audience)
      waiting.push([event, audience])
      if (waiting.length > MAX_WAITING_EVENTS) stream.end()
    },
  })
  if (resumeAfter === null || resumeAfter === cursor) {
    stream.send(controlFrame('ready', cursor))
  } else if (resumeAfter > cursor) {
    // What the broadcaster reads while catching up waits in `waiting` like any live event.
    const head = await broadcaster.catchUp()
    if (head < resumeAfter && !isReplica(db)) {
      // One database and a cursor past its end: the cursor is from another database.
      stream.send(controlFrame('reset', cursor))
    } else {
      known = resumeAfter
      stream.send(controlFrame('ready', resumeAfter))
    }
  } else if (!(await canResumeAfter(db, resumeAfter, cursor))) {
    stream.send(controlFrame('reset', cursor))
  } else {
    let after = resumeAfter
    while (after < cursor && !stream.isClosed) {
      const page = await readEventsAfter(db, { after, until: cursor, taskId: feed.taskId, limit: PAGE_SIZE })
      const audiences = await audiencesOf(db, page)
      for (const event of page) deliver(event, audienceOf(event, audiences))
      after = page.length < PAGE_SIZE ? cursor : (page.at(-1)?.id ?? cursor)
    }
    stream.send(controlFrame('ready', cursor))
  }
  for (const [event, audience] of waiting) deliver(event, audience)
  waiting = null
  return unsubscribe
}
