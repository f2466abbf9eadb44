import { REACTION_TYPES } from '~/domain/constants'
import { z } from '~/utils/zod'

/**
 * A comment's inputs as every entry point accepts them: the comment forms of the task modal (with and
 * without JavaScript), the RPC procedures and the service. Messages are what people read.
 */
const MAX_COMMENT_LENGTH = 5000
const MAX_MENTIONS = 50

const CommentContentSchema = z
  .string({ error: 'Write a comment first' })
  .trim()
  .min(1, 'Write a comment first')
  .max(
    MAX_COMMENT_LENGTH,
    `A comment can be at most ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters`,
  )

const ReactionTypeSchema = z.enum(REACTION_TYPES, {
  error: 'Reaction must be thumbsup, heart, check or fire',
})

/**
 * The e-mails of the people a client says it mentioned. Only a hint: the server matches the text
 * itself and drops anyone the author may not mention.
 */
const MentionEmailsSchema = z
  .array(z.string().trim().toLowerCase().pipe(z.email('Mentions must be e-mail addresses')))
  .max(MAX_MENTIONS, `Mention at most ${MAX_MENTIONS} people`)
  .transform((emails) => [...new Set(emails)])

const Id = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)

const TaskIdSchema = Id('taskId')
export const CommentIdSchema = Id('commentId')
export const NotificationIdSchema = Id('notificationId')

export const NewCommentSchema = z.object({
  taskId: TaskIdSchema,
  content: CommentContentSchema,
  mentions: MentionEmailsSchema.default([]),
  parentCommentId: CommentIdSchema.nullish(),
})

export const CommentEditSchema = z.object({ commentId: CommentIdSchema, content: CommentContentSchema })

export const ReactionSchema = z.object({ commentId: CommentIdSchema, reactionType: ReactionTypeSchema })

export type NewComment = z.output<typeof NewCommentSchema>
