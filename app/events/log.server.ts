import type { Executor } from '~/db/client.server'
import { events } from '~/db/schema'

export type TaskEventType = 'task-created' | 'task-updated' | 'task-deleted' | 'task-status-changed'
export type CommentEventType =
  | 'comment-added'
  | 'comment-updated'
  | 'comment-deleted'
  | 'reaction-changed'
  | 'mention'
export type ChatEventType =
  | 'chat-created'
  | 'chat-renamed'
  | 'chat-deleted'
  | 'chat-sharing-changed'
  | 'chat-message-added'

export type AppEvent =
  | { topic: 'tasks'; type: TaskEventType; taskId: string; payload: Record<string, unknown> }
  | { topic: 'comments'; type: CommentEventType; taskId: string; payload: Record<string, unknown> }
  | { topic: 'chats'; type: ChatEventType; payload: { chatId: string } & Record<string, unknown> }

/**
 * Appends to the event log. Services call it inside the transaction of the change it describes,
 * so an event exists exactly when its change committed; streams read the log by its id.
 */
export async function appendEvent(tx: Executor, event: AppEvent) {
  await tx.insert(events).values(event)
}
