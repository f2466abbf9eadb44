import type { UIMessage } from 'ai'
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { chatMessages, chatShares, chats, users } from '~/db/schema'
import { commit, insertIf, wroteJustBefore } from '~/db/write.server'
import type { ChatVisibility } from '~/domain/constants'
import { entitlementsFor } from '~/domain/entitlements'
import { appendEvent } from '~/events/log.server'
import { Forbidden, Invalid, NotFound } from './errors'
import { consumeRateLimit } from './rate-limit.server'
import type { Actor, Viewer } from './session-user'

/**
 * The rules of saved chats (docs/product-rules.md §1):
 * - every conversation is saved as it happens; its title comes from the first message;
 * - a chat is its owner's: only the owner writes in it, renames, shares or deletes it;
 * - others read it when it is public (anyone with the link, signed in or not) or shared with an
 *   address they have verified, as tasks are shared; read-only, always;
 * - a chat someone may not read answers 'Chat not found', never a hint that it exists;
 * - whom a chat is shared with is the owner's to know (docs/decisions/020-who-sees-whom.md).
 */

export const CHAT_NOT_FOUND = 'Chat not found'
export const NEW_CHAT_TITLE = 'New chat'
const TITLE_LENGTH = 60

export type ChatSummary = {
  id: string
  title: string
  visibility: ChatVisibility
  createdAt: string
  updatedAt: string
}

type ChatView = ChatSummary & {
  ownerName: string
  /** The addresses it is shared with: the owner's to know, empty for everyone else. */
  sharedWith: string[]
}

export type ChatAccess = { chat: ChatView; isOwner: boolean; messages: UIMessage[] }

/** A title from the first message: its first line, without markdown marks, cut at a word. */
export function titleFromMessage(text: string) {
  const line =
    text
      .split('\n')
      .map((part) =>
        part
          .replace(/[#>*_`~[\]]/g, '')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .find(Boolean) ?? ''
  if (line === '') return NEW_CHAT_TITLE
  if (line.length <= TITLE_LENGTH) return line
  const cut = line.slice(0, TITLE_LENGTH)
  const lastSpace = cut.lastIndexOf(' ')
  // Cut at the last word break, unless that would leave too little of the line.
  return `${(lastSpace > TITLE_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

/** The text of a message alone, for titles, previews and the JS-off page. */
export function textOf(message: Pick<UIMessage, 'parts'>) {
  return message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n\n')
    .trim()
}

const toSummary = (row: typeof chats.$inferSelect): ChatSummary => ({
  id: row.id,
  title: row.title,
  visibility: row.visibility,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

// ── Reading ─────────────────────────────────────────────────────────────────

/** ai.getSavedChats and /saved-chats: the person's own chats, the latest first. */
export async function listSavedChats(db: Database, actor: Actor, limit = 200): Promise<ChatSummary[]> {
  const rows = await db
    .select()
    .from(chats)
    .where(eq(chats.userId, actor.id))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(limit)
  return rows.map(toSummary)
}

/** A chat with its messages as this viewer may read it; NotFound when they may not. */
export async function getChat(db: Executor, viewer: Viewer, chatId: string): Promise<ChatAccess> {
  const [row] = await db
    .select({ chat: chats, ownerName: users.name })
    .from(chats)
    .innerJoin(users, eq(users.id, chats.userId))
    .where(eq(chats.id, chatId))
    .limit(1)
  if (!row) throw new NotFound(CHAT_NOT_FOUND)
  const shares = await db
    .select({ email: chatShares.email })
    .from(chatShares)
    .where(eq(chatShares.chatId, chatId))
    .orderBy(asc(chatShares.createdAt), asc(chatShares.email))
  const isOwner = viewer?.id === row.chat.userId
  const verifiedEmail = viewer?.emailVerified ? viewer.email.toLowerCase() : null
  const isShared = verifiedEmail !== null && shares.some((share) => share.email === verifiedEmail)
  if (!isOwner && !isShared && row.chat.visibility !== 'public') throw new NotFound(CHAT_NOT_FOUND)
  return {
    chat: {
      ...toSummary(row.chat),
      ownerName: row.ownerName || 'Unknown User',
      sharedWith: isOwner ? shares.map((share) => share.email) : [],
    },
    isOwner,
    messages: await loadMessages(db, chatId),
  }
}

/** The chat of its owner; anyone else gets NotFound, or Forbidden when they may only read it. */
export async function getOwnChat(db: Executor, actor: Actor, chatId: string): Promise<ChatAccess> {
  const access = await getChat(db, actor, chatId)
  if (!access.isOwner) throw new Forbidden('Only the owner of this chat can change it.')
  return access
}

async function loadMessages(db: Executor, chatId: string): Promise<UIMessage[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(asc(chatMessages.position), asc(chatMessages.createdAt))
  return rows.flatMap((row) =>
    row.role === 'system' ? [] : [{ id: row.id, role: row.role, parts: row.parts as UIMessage['parts'] }],
  )
}

// ── Changing ────────────────────────────────────────────────────────────────

/**
 * Starts a chat with the person's first message. `chatId` is the id the page minted, so a chat
 * keeps one address from its first keystroke; an id someone else holds is refused as not found.
 */
export async function createChat(db: Database, actor: Actor, chatId: string, firstMessage: string) {
  const { chat } = await commit(db, {
    chat: db
      .insert(chats)
      .values({ id: chatId, userId: actor.id, title: titleFromMessage(firstMessage) })
      .onConflictDoNothing(),
    event: appendEvent(
      db,
      { topic: 'chats', type: 'chat-created', payload: { chatId, userId: actor.id } },
      wroteJustBefore,
    ),
  })
  if (chat.rowsAffected > 0) return true
  const [existing] = await db.select({ userId: chats.userId }).from(chats).where(eq(chats.id, chatId))
  if (existing?.userId !== actor.id) throw new NotFound(CHAT_NOT_FOUND)
  return false
}

/** The chat is still there as the commit reaches this statement. */
const chatExists = (chatId: string) => sql`EXISTS (SELECT 1 FROM ${chats} WHERE ${chats.id} = ${chatId})`

/**
 * Saves the conversation as it now stands: every message from `fromPosition` on is replaced by
 * `messages[fromPosition..]`. An edit or a regeneration drops what followed the changed message.
 */
export async function saveMessages(db: Database, chatId: string, messages: UIMessage[], fromPosition = 0) {
  const now = new Date()
  // A chat deleted while its answer was written keeps nothing of it.
  const isThere = chatExists(chatId)
  await commit(db, {
    dropped: db
      .delete(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId), gte(chatMessages.position, fromPosition))),
    messages: messages.slice(fromPosition).map((message, index) =>
      insertIf(
        db,
        chatMessages,
        {
          id: message.id,
          chatId,
          role: message.role,
          content: textOf(message),
          parts: message.parts,
          position: fromPosition + index,
          createdAt: now,
        },
        isThere,
      ),
    ),
    touched: db.update(chats).set({ updatedAt: now }).where(eq(chats.id, chatId)),
    event: appendEvent(
      db,
      { topic: 'chats', type: 'chat-message-added', payload: { chatId, messages: messages.length } },
      isThere,
    ),
  })
}

export async function renameChat(db: Database, actor: Actor, chatId: string, title: string) {
  await getOwnChat(db, actor, chatId)
  await commit(db, {
    renamed: db.update(chats).set({ title }).where(eq(chats.id, chatId)),
    event: appendEvent(
      db,
      { topic: 'chats', type: 'chat-renamed', payload: { chatId, title } },
      wroteJustBefore,
    ),
  })
}

export async function deleteChat(db: Database, actor: Actor, chatId: string) {
  await getOwnChat(db, actor, chatId)
  await commit(db, {
    deleted: db.delete(chats).where(eq(chats.id, chatId)),
    event: appendEvent(
      db,
      { topic: 'chats', type: 'chat-deleted', payload: { chatId, userId: actor.id } },
      wroteJustBefore,
    ),
  })
}

/**
 * Who may read a chat besides its owner: anyone with the link (public), or the people it is
 * shared with. Replaces both at once; an empty list and 'private' revoke every reader.
 */
export async function setChatSharing(
  db: Database,
  actor: Actor,
  chatId: string,
  sharing: { visibility: ChatVisibility; emails: string[] },
) {
  await getOwnChat(db, actor, chatId)
  const own = actor.email.toLowerCase()
  if (sharing.emails.includes(own)) {
    throw new Invalid('You already own this chat.', [
      { path: ['emails'], message: 'You already own this chat.' },
    ])
  }
  const isThere = chatExists(chatId)
  await commit(db, {
    visibility: db.update(chats).set({ visibility: sharing.visibility }).where(eq(chats.id, chatId)),
    dropped: db.delete(chatShares).where(eq(chatShares.chatId, chatId)),
    shares: sharing.emails.map((email) => insertIf(db, chatShares, { chatId, email }, isThere)),
    event: appendEvent(
      db,
      {
        topic: 'chats',
        type: 'chat-sharing-changed',
        payload: { chatId, visibility: sharing.visibility, shares: sharing.emails.length },
      },
      isThere,
    ),
  })
  return (await getChat(db, actor, chatId)).chat
}

// ── Limits ──────────────────────────────────────────────────────────────────

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Counts one message against the person's daily allowance (UTC days; the number comes from their
 * plan, docs/product-rules.md §2) and refuses with 429 once it is spent.
 */
export async function consumeChatMessage(db: Database, actor: Actor, now = Date.now()) {
  const [person] = await db
    .select({ plan: users.plan, accessUntil: users.accessUntil })
    .from(users)
    .where(eq(users.id, actor.id))
  if (!person) throw new NotFound('Account not found')
  const { aiMessagesPerDay } = entitlementsFor(person, new Date(now))
  const dayStart = now - (now % DAY_MS)
  const day = new Date(dayStart).toISOString().slice(0, 10)
  await consumeRateLimit(
    db,
    `ai-messages:${actor.id}:${day}`,
    {
      limit: aiMessagesPerDay,
      windowMs: dayStart + DAY_MS - now,
      message: `You have sent your ${aiMessagesPerDay} AI chat messages for today. The allowance renews at midnight UTC; a paid plan raises it.`,
    },
    now,
  )
}
