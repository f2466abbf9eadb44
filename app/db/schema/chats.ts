import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { CHAT_ROLES, CHAT_STREAM_STATUSES, CHAT_VISIBILITIES } from '~/domain/constants'
import { users } from './accounts'
import { createdAt, id, ms, updatedAt } from './columns'

/** Saved AI chats, who they are shared with, and the answers being generated. */
export const chats = sqliteTable(
  'chats',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    visibility: text('visibility', { enum: CHAT_VISIBILITIES }).notNull().default('private'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chats_user_updated_idx').on(t.userId, t.updatedAt)],
)

export const chatMessages = sqliteTable(
  'chat_messages',
  {
    id: id(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    role: text('role', { enum: CHAT_ROLES }).notNull(),
    /** The message's text alone, for titles and previews; `parts` is what the chat renders. */
    content: text('content').notNull(),
    /** The AI SDK's `UIMessage` parts: text, tool calls with their input, approval and output. */
    parts: text('parts', { mode: 'json' }).notNull().default([]).$type<unknown[]>(),
    /** The message's place in its chat (timestamps of one exchange can share a millisecond). */
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_chat_created_idx').on(t.chatId, t.createdAt),
    index('chat_messages_chat_position_idx').on(t.chatId, t.position),
  ],
)

/** Addresses a chat is shared with, as tasks are: access follows once that address is verified. */
export const chatShares = sqliteTable(
  'chat_shares',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.email] }), index('chat_shares_email_idx').on(t.email, t.chatId)],
)

/**
 * One generation of an answer. Its chunks are kept in the database while it runs, so any tab on
 * any instance can replay and tail it; `stopRequestedAt` is how a Stop reaches the instance that
 * generates. At most one runs per chat (the partial unique index).
 */
export const chatStreams = sqliteTable(
  'chat_streams',
  {
    id: id(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CHAT_STREAM_STATUSES }).notNull().default('running'),
    stopRequestedAt: ms('stop_requested_at'),
    createdAt: createdAt(),
    /** Touched at every flush: a running stream nobody touched for a while lost its instance. */
    updatedAt: updatedAt(),
  },
  (t) => [
    index('chat_streams_chat_idx').on(t.chatId, t.createdAt),
    uniqueIndex('chat_streams_one_running_idx').on(t.chatId).where(sql`status = 'running'`),
  ],
)

export const chatStreamChunks = sqliteTable(
  'chat_stream_chunks',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => chatStreams.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** One `UIMessageChunk`, as JSON. */
    chunk: text('chunk').notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.seq] })],
)
