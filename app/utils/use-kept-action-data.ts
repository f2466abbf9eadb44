import { useState } from 'react'
import { useLocation } from 'react-router'

/**
 * What the page's last form submission answered, kept while the page stays where it is.
 *
 * React Router forgets `actionData` on any later reload of the page's data that does not follow
 * the action itself: a live update of the task list, a mention arriving, another tab's change.
 * A person reading "Title must be at least 3 characters" under a field would see it vanish while
 * the field is still wrong. This keeps the answer until the next one, or until the page moves to
 * another location (a redirect after success, a link), whose key is new.
 */
export function useKeptActionData<Data>(actionData: Data | undefined): Data | undefined {
  const { key } = useLocation()
  const [kept, setKept] = useState({ key, data: actionData })
  if (actionData !== undefined && (kept.data !== actionData || kept.key !== key))
    setKept({ key, data: actionData })
  if (actionData !== undefined) return actionData
  return kept.key === key ? kept.data : undefined
}
