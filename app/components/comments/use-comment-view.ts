import { useState } from 'react'
import { useLocation } from 'react-router'
import { withSearchParams } from '~/utils/search-params'

/**
 * Which comment view is open: a reply box, an edit box, or a delete confirmation under one
 * comment. The URL holds it (`?view=reply&comment=<id>`), so each view is a link that works
 * without JavaScript; with JavaScript the same links toggle it in place.
 */
export type View = { kind: 'reply' | 'edit-comment' | 'delete-comment'; commentId: string } | null

function viewFrom(search: string): View {
  const params = new URLSearchParams(search)
  const kind = params.get('view')
  const commentId = params.get('comment')
  if (!commentId || (kind !== 'reply' && kind !== 'edit-comment' && kind !== 'delete-comment')) return null
  return { kind, commentId }
}

/** The view the page was opened with; after that, links change it in place. */
export function useCommentView() {
  const location = useLocation()
  return useState<View>(() => viewFrom(location.search))
}

/** The URL of a comment view (or of no view), kept on the page the modal is open on. */
export function useViewHref() {
  const location = useLocation()
  return (view: View) =>
    withSearchParams(location, { view: view?.kind ?? null, comment: view?.commentId ?? null })
}
