import { redirect } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ChangeRefusedScreen, NotFoundScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { toggleReaction } from '~/services/comment-reactions.server'
import {
  CommentEditSchema,
  CommentIdSchema,
  NewCommentSchema,
  ReactionSchema,
} from '~/services/comment-schemas'
import { addComment, deleteComment, updateComment } from '~/services/comments.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { safeRedirect } from '~/utils/redirect.server'
import { withSearchParams } from '~/utils/search-params'
import { z } from '~/utils/zod'
import type { Route } from './+types/comments'

/**
 * Every change to a task's discussion, from the comments section of the task modal on any page.
 * Without JavaScript each form posts here and comes back to the page it was on, with the toast
 * as a banner; with JavaScript a fetcher posts, and the same redirect revalidates the page in
 * place (`X-Remix-Replace`, so reacting ten times leaves no ten history entries).
 */
const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add') }).extend(NewCommentSchema.shape),
  z.object({ intent: z.literal('edit') }).extend(CommentEditSchema.shape),
  z.object({ intent: z.literal('delete'), commentId: CommentIdSchema }),
  z.object({ intent: z.literal('react') }).extend(ReactionSchema.shape),
])

type IntentName = z.output<typeof Intent>['intent']

/** The product's failure toasts (docs/product-rules.md §4), one per kind of change. */
export const FAILURE_TOASTS: Record<IntentName, string> = {
  add: 'Failed to add comment. Please try again.',
  edit: 'Failed to update comment. Please try again.',
  delete: 'Failed to delete comment. Please try again.',
  react: 'Failed to add reaction. Please try again.',
}

/** The product's success toasts (docs/product-rules.md §4). */
export function addedToast(notified: number) {
  if (notified === 0) return 'Comment added successfully! 💬'
  return `Comment added and ${notified} ${notified === 1 ? 'person' : 'people'} notified! 📢`
}
export const UPDATED_TOAST = 'Comment updated successfully! ✏️'
export const DELETED_TOAST = 'Comment deleted successfully! 🗑️'

export type CommentActionData = { error: string; detail: string; back: string }

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const formData = await readFormData(request)
  const back = safeRedirect(formData.get('redirectTo'), '/task')
  const intent = Intent.options.some((option) => option.shape.intent.value === formData.get('intent'))
    ? (formData.get('intent') as IntentName)
    : 'add'
  const db = database()
  const done = withoutCommentView(back)
  const replace = { headers: { 'X-Remix-Replace': 'true' } }
  return handleForm(
    formData,
    Intent,
    {
      add: async ({ intent: _intent, ...comment }) => {
        const { notified } = await addComment(db, user, comment)
        return redirectWithToast(done, { type: 'success', title: addedToast(notified) }, replace)
      },
      edit: async ({ commentId, content }) => {
        await updateComment(db, user, commentId, content)
        return redirectWithToast(done, { type: 'success', title: UPDATED_TOAST }, replace)
      },
      delete: async ({ commentId }) => {
        await deleteComment(db, user, commentId)
        return redirectWithToast(done, { type: 'success', title: DELETED_TOAST }, replace)
      },
      react: async ({ commentId, reactionType }) => {
        await toggleReaction(db, user, commentId, reactionType)
        return redirect(done, replace)
      },
    },
    // `intent` as read above: the change's own once the form parsed, else 'add' when none is named.
    { refusal: (detail): CommentActionData => ({ error: FAILURE_TOASTS[intent], detail, back }) },
  )
}

/** After a change, the modal shows the discussion again rather than the reply or edit form. */
function withoutCommentView(path: string) {
  return withSearchParams(path, { view: null, comment: null })
}

/**
 * Nothing to load: this address receives forms. (It must not redirect: after a refused post
 * without JavaScript, React Router runs this loader before rendering the refusal below.)
 */
export function loader() {
  return null
}

/** Shown only without JavaScript, when a change was refused: what went wrong and the way back. */
export default function CommentActionError({ actionData }: Route.ComponentProps) {
  if (!actionData) return <NotFoundScreen backHref="/task" />
  return <ChangeRefusedScreen title={actionData.error} message={actionData.detail} back={actionData.back} />
}
