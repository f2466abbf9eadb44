import { type ReactNode, useEffect, useRef } from 'react'
import { Link, useFetcher, useLocation } from 'react-router'
import { ActionForm, type ActionFormProps } from '~/components/action-form'
import { toast } from '~/components/toaster'
import { buttonClasses } from '~/components/ui/button'
import type { CommentActionData } from '~/routes/tasks/comments'
import { withSearchParams } from '~/utils/search-params'

/** A fetcher form to /task/comments that returns to this page; failures become the comment toasts of docs/product-rules.md §4. */
export function useCommentFetcher(onSuccess?: () => void) {
  const fetcher = useFetcher<CommentActionData>()
  const wasBusy = useRef(false)
  useEffect(() => {
    if (fetcher.state !== 'idle') {
      wasBusy.current = true
      return
    }
    if (!wasBusy.current) return
    wasBusy.current = false
    if (fetcher.data?.error) toast.error(fetcher.data.error, { description: fetcher.data.detail })
    else onSuccess?.()
  }, [fetcher.state, fetcher.data, onSuccess])
  return fetcher
}

type CommentFetcher = ReturnType<typeof useCommentFetcher>

/**
 * A form to /task/comments: the intent, its fields, and the page to come back to (without the
 * reply or edit view that was open).
 */
export function CommentForm({
  fields,
  children,
  ...props
}: {
  fetcher: CommentFetcher
  intent: string
  fields: Record<string, string>
  children: ReactNode
} & Omit<ActionFormProps, 'action' | 'redirectTo' | 'children'>) {
  const location = useLocation()
  return (
    <ActionForm
      action="/task/comments"
      redirectTo={withSearchParams(location, { view: null, comment: null })}
      preventScrollReset
      {...props}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </ActionForm>
  )
}

/** Closes a reply, edit or delete view: a link without JavaScript, in place with it. */
export function CancelLink({ href, onCancel }: { href: string; onCancel: () => void }) {
  return (
    <Link
      to={href}
      preventScrollReset
      replace
      className={buttonClasses('outline', 'sm')}
      onClick={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      Cancel
    </Link>
  )
}
