import { CHAT_VISIBILITIES } from '~/domain/constants'
import { z } from '~/utils/zod'
import { ShareEmailsSchema, splitEmails } from './tasks/task-schemas'

/**
 * The shapes chat input must have, shared by the form actions, the streaming route and the RPC
 * procedure (docs/product-rules.md §2 lists the limits).
 */

export const CHAT_MESSAGE_MAX = 4000
const CHAT_TITLE_MAX = 100

/** A chat's id is minted by the page (a UUID) and travels in URLs: letters, digits, '-' and '_'. */
export const ChatIdSchema = z.string().regex(/^[\w-]{1,100}$/, 'Chat not found')

export const ChatMessageTextSchema = z
  .string({ error: 'Write a message first.' })
  .trim()
  .min(1, 'Write a message first.')
  .max(CHAT_MESSAGE_MAX, `A message has at most ${CHAT_MESSAGE_MAX.toLocaleString('en')} characters.`)

export const ChatTitleSchema = z
  .string({ error: 'Give the chat a title.' })
  .trim()
  .min(1, 'Give the chat a title.')
  .max(CHAT_TITLE_MAX, `A title has at most ${CHAT_TITLE_MAX} characters.`)

export const ChatVisibilitySchema = z.enum(CHAT_VISIBILITIES, { error: 'Choose private or public.' })

/** One address per line or separated by commas, as a task's share field takes them. */
export const ChatShareEmailsSchema = z.preprocess(splitEmails, ShareEmailsSchema).default([])

/** A tool approval the person gave or refused in the page. */
const ToolApprovalSchema = z.object({
  id: z.string().min(1).max(200),
  approved: z.boolean(),
})

/**
 * What the chat page sends to generate an answer. Only the new message travels (the history is
 * the saved one, so a client cannot rewrite what the assistant said), plus approvals of pending
 * tool calls; `messageId` names the message an edit replaces or the answer to regenerate.
 */
export const ChatRequestSchema = z.discriminatedUnion('trigger', [
  z.object({
    trigger: z.literal('submit-message'),
    chatId: ChatIdSchema,
    text: ChatMessageTextSchema,
    messageId: z.string().min(1).max(200).optional(),
  }),
  z.object({
    trigger: z.literal('regenerate-message'),
    chatId: ChatIdSchema,
  }),
  z.object({
    trigger: z.literal('approve-tools'),
    chatId: ChatIdSchema,
    approvals: z.array(ToolApprovalSchema).min(1).max(20),
  }),
])

export type ChatRequest = z.infer<typeof ChatRequestSchema>
