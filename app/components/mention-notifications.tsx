import { useEffect, useRef } from 'react'
import { useLocation, useNavigate, useRevalidator } from 'react-router'
import { useCsrfToken } from '~/components/csrf-input'
import { useTaskEvents } from '~/components/live/task-events'
import { toast } from '~/components/toaster'
import type { SessionUser } from '~/services/session-user'
import { usePolling } from '~/utils/polling'
import { fetchRpc, postRpc } from '~/utils/rpc-client'
import { withSearchParams } from '~/utils/search-params'

/**
 * The task stream's events after which unread mentions are read again: a new mention, the person
 * no longer in a workspace (mentions on its tasks leave the badge's count), a stream that reset.
 */
const REREAD_ON = new Set<string>(['mention', 'access-changed', 'reset'])
/**
 * Mention toasts (docs/product-rules.md §3, §4): while signed in, the page reads the person's
 * unread mentions when the task stream brings a mention (every 3 s while the stream is down),
 * and toasts each one it has not shown in this browser before, with a
 * 'View Task' action that opens the task's modal and marks the mention read. Which ones were
 * shown is kept per user in localStorage, so a reload or a second tab does not repeat them.
 */

const MENTION_POLL_MS = 3000
const MENTION_TOAST_MS = 8000
const PREVIEW_CHARACTERS = 50
/** Enough to outlast any list the server sends (its 50 newest unread mentions). */
export const SEEN_MENTIONS_LIMIT = 200

/** What a toast needs of a `comments.getMentionNotifications` item. */
export type Mention = {
  id: string
  taskId: string
  fromUserName: string
  content: string
  /** An assignment's notification carries the task's title as its content. */
  type?: 'mention' | 'assignment'
}

export type MentionStore = Pick<Storage, 'getItem' | 'setItem'>

/** The mention toast's text (docs/product-rules.md §4): the sender, then the first 50 characters and an ellipsis. */
export function mentionToastText(mention: Pick<Mention, 'fromUserName' | 'content' | 'type'>): string {
  if (mention.type === 'assignment') return `${mention.fromUserName} assigned you “${mention.content}”`
  // By code points, so an emoji on the cut is kept whole or left out, never halved.
  const preview = Array.from(mention.content).slice(0, PREVIEW_CHARACTERS).join('')
  return `${mention.fromUserName} mentioned you in a comment: "${preview}..."`
}

export function seenMentionsKey(userId: string) {
  return `threadwork:seen-mentions:${userId}`
}

function readSeen(store: MentionStore, userId: string): string[] {
  try {
    const ids: unknown = JSON.parse(store.getItem(seenMentionsKey(userId)) ?? '[]')
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}

/**
 * The mentions of `unread` (newest first, as the server lists them) not shown before, which it
 * records as shown in the same step. It remembers the ids the server still lists first, then
 * the most recent others, up to the limit: an id that is still unread is never forgotten (it
 * would toast again), and one that was read never comes back, so it may go.
 */
export function claimUnseenMentions<T extends Pick<Mention, 'id'>>(
  store: MentionStore,
  userId: string,
  unread: readonly T[],
): T[] {
  const seen = readSeen(store, userId)
  const seenIds = new Set(seen)
  const unseen = unread.filter((mention) => !seenIds.has(mention.id))
  if (unseen.length === 0) return []
  const listed = unread.map((mention) => mention.id)
  const listedIds = new Set(listed)
  const remembered = [...listed, ...seen.filter((id) => !listedIds.has(id))]
  store.setItem(
    seenMentionsKey(userId),
    JSON.stringify(remembered.slice(0, Math.max(SEEN_MENTIONS_LIMIT, listed.length))),
  )
  return unseen
}

/**
 * localStorage while the browser lets us use it. Blocked (privacy settings) or full, it falls
 * back to memory for the rest of the page's life: a toast then shows once per page instead of
 * on every poll.
 */
export function mentionStore(storage: () => MentionStore): MentionStore {
  const memory = new Map<string, string>()
  let isMemoryOnly = false
  return {
    getItem(key) {
      if (!isMemoryOnly) {
        try {
          return storage().getItem(key)
        } catch {
          isMemoryOnly = true
        }
      }
      return memory.get(key) ?? null
    },
    setItem(key, value) {
      memory.set(key, value)
      if (isMemoryOnly) return
      try {
        storage().setItem(key, value)
      } catch {
        isMemoryOnly = true
      }
    },
  }
}

/** The current page with the task's modal open (`?task=`), leaving the previous modal's views. */
export function taskHref(location: { pathname: string; search: string }, taskId: string) {
  return withSearchParams(location, { view: null, comment: null, task: taskId })
}

/** The unread mentions as one value, to tell whether they changed between two polls. */
function unreadKey(unread: readonly Pick<Mention, 'id'>[]) {
  return unread.map((mention) => mention.id).join(',')
}

export default function MentionNotifications({
  user,
  unreadCount,
}: {
  user: SessionUser
  unreadCount: number
}) {
  const navigate = useNavigate()
  const location = useLocation()
  const csrfToken = useCsrfToken()
  const { revalidate } = useRevalidator()
  // A toast's action runs long after it was shown: it reads the page as it is when clicked.
  const page = useRef({ navigate, location, csrfToken, revalidate, unreadCount })
  useEffect(() => {
    page.current = { navigate, location, csrfToken, revalidate, unreadCount }
  })
  const store = useRef<MentionStore | null>(null)
  const lastUnread = useRef<string | null>(null)

  function markRead(mention: Mention) {
    const { csrfToken } = page.current
    postRpc('comments/markNotificationAsRead', { notificationId: mention.id }, { csrfToken }).catch(
      (error: unknown) => console.error('Failed to mark notification as read', error),
    )
  }

  function viewTask(mention: Mention) {
    const { navigate, location } = page.current
    void navigate(taskHref(location, mention.taskId), { preventScrollReset: true })
    markRead(mention)
  }

  async function checkMentions(signal?: AbortSignal) {
    const unread = await fetchRpc('comments/getMentionNotifications', undefined, { signal })
    // The header's badge comes with the page's data: when the unread mentions change (one arrives,
    // one is read in another tab), load it again. The first poll compares with the badge, which
    // may be older than the page's scripts.
    const key = unreadKey(unread)
    const isChanged =
      lastUnread.current === null ? unread.length !== page.current.unreadCount : key !== lastUnread.current
    if (isChanged) void page.current.revalidate()
    lastUnread.current = key
    store.current ??= mentionStore(() => window.localStorage)
    // A mention on the task whose modal is open is read already: the person is looking at it.
    const openTaskId = new URLSearchParams(page.current.location.search).get('task')
    for (const mention of unread) if (mention.taskId === openTaskId) markRead(mention)
    // Oldest first, so the newest ends on top of the stack.
    for (const mention of claimUnseenMentions(store.current, user.id, unread).reverse()) {
      if (mention.taskId === openTaskId) continue
      toast.info(mentionToastText(mention), {
        id: `mention-${mention.id}`,
        duration: MENTION_TOAST_MS,
        action: { label: 'View Task', onClick: () => viewTask(mention) },
      })
    }
  }

  // A mention arrives by push on the tab's task stream; while the stream is down the page polls.
  // What was unread before this page is read once when the toasts start: they load after the
  // page hydrates (app/root.tsx), when the stream may already be live.
  // One read at a time: mentions arriving together are read once more after the read in hand.
  const reading = useRef<{ isAskedAgain: boolean } | null>(null)
  function readPushedMentions() {
    if (reading.current) {
      reading.current.isAskedAgain = true
      return
    }
    const current = { isAskedAgain: false }
    reading.current = current
    checkMentions()
      .catch((error: unknown) => console.error('Reading mentions failed', error))
      .finally(() => {
        reading.current = null
        if (current.isAskedAgain) readPushedMentions()
      })
  }
  const status = useTaskEvents((event) => {
    if (REREAD_ON.has(event.type)) readPushedMentions()
  })
  usePolling(checkMentions, MENTION_POLL_MS, { enabled: status === 'paused' })
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the toasts start
  useEffect(() => readPushedMentions(), [])
  useUnreadCountAcrossTabs(user.id, unreadCount, () => page.current)

  return null
}

/**
 * The person's other tabs learn of a changed badge at once: mentions read in one tab (in the
 * inbox, say) are not an event on the task stream, so the others' badges would wait for their
 * next page. Each tab says its count whenever it changes; a tab that shows another count loads
 * its own again. That converges, since each reload reads the same table.
 */
function useUnreadCountAcrossTabs(
  userId: string,
  unreadCount: number,
  current: () => { unreadCount: number; revalidate: () => Promise<void> },
) {
  const channel = useRef<BroadcastChannel | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `current` reads the page as it is now
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return
    const opened = new BroadcastChannel(`threadwork:unread-mentions:${userId}`)
    opened.onmessage = ({ data }: MessageEvent<unknown>) => {
      const { unreadCount, revalidate } = current()
      if (typeof data === 'number' && data !== unreadCount) void revalidate()
    }
    channel.current = opened
    return () => {
      opened.close()
      channel.current = null
    }
  }, [userId])
  useEffect(() => {
    channel.current?.postMessage(unreadCount)
  }, [unreadCount])
}
