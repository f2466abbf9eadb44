import type { ComponentProps, Ref } from 'react'
import { type FetcherFormProps, type FetcherWithComponents, Form, useLocation } from 'react-router'
import { CSRF_FIELD, CsrfInput, useCsrfToken } from '~/components/csrf-input'
import { type ButtonVariant, StatusButton } from '~/components/ui/button'
import { useIsPending, useSubmitOnce } from '~/utils/pending'

type Fetcher = Pick<FetcherWithComponents<unknown>, 'Form' | 'submit'>

export type ActionFormProps = Omit<FetcherFormProps, 'method'> & {
  /** Posts with this fetcher, so the page stays as it is; without one the form navigates. */
  fetcher?: Fetcher
  /** The hidden `intent` field, where one action serves several forms. */
  intent?: string
  /**
   * The page the action sends the person back to (`redirectTo`), for a form that posts to another
   * route's action: `true` for this page as it is (its path and search), or the address given.
   */
  redirectTo?: true | string
  ref?: Ref<HTMLFormElement>
}

/**
 * Every form that posts to an action. It carries the page's CSRF token (the root middleware
 * refuses a POST without one), the `intent` and the return address when given, and it submits
 * once: the pending state is committed before a second click or Enter could send it again
 * (`useSubmitOnce`), so a `StatusButton` with `useIsPending` or the fetcher's state shows it.
 * Without JavaScript it is a plain `<form method="post">` with the same fields.
 */
export function ActionForm({ fetcher, intent, redirectTo, onSubmit, children, ...props }: ActionFormProps) {
  const location = useLocation()
  const submitOnce = useSubmitOnce(fetcher, { preventScrollReset: props.preventScrollReset })
  const FormElement: Fetcher['Form'] = fetcher?.Form ?? Form
  const returnTo = returnAddress(location, redirectTo)
  return (
    <FormElement method="post" {...props} onSubmit={submitOnce(onSubmit)}>
      <CsrfInput />
      {intent === undefined ? null : <input type="hidden" name="intent" value={intent} />}
      {returnTo === undefined ? null : <input type="hidden" name="redirectTo" value={returnTo} />}
      {children}
    </FormElement>
  )
}

/**
 * A form of one button that acts on one item — revoke a session, remove a passkey, retry a job:
 * the `intent`, the fields that name the item (hidden), and a small button that shows it is
 * pending for this item's submission only. `accessibleName`, when the item is not in `label`,
 * tells a screen reader which one ("Revoke" → "Revoke Firefox on Linux session").
 */
export function ActionButton({
  intent,
  fields,
  label,
  pendingText,
  accessibleName,
  variant = 'outline',
  action,
}: {
  intent: string
  /** The hidden fields that name the item; none when the page itself is the item. */
  fields?: Record<string, string>
  label: string
  pendingText: string
  accessibleName?: string
  variant?: ButtonVariant
  /** Another route's action: the form goes there, and comes back to this page. */
  action?: string
}) {
  const isPending = useIsPending({ intent, fields })
  return (
    <ActionForm intent={intent} action={action} redirectTo={action ? true : undefined}>
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <StatusButton
        isPending={isPending}
        pendingText={pendingText}
        variant={variant}
        size="sm"
        aria-label={accessibleName}
      >
        {label}
      </StatusButton>
    </ActionForm>
  )
}

/**
 * What every row's form of a long list carries, read once for the whole list: the page's CSRF
 * token and the return address (`redirectTo` as `<ActionForm>` takes it). A router form per row
 * would resolve its action, hold a submit function and read the page's matches, twenty times for
 * twenty rows, on the server too (docs/decisions/031-list-rows-share-the-router.md).
 */
export function useListFormFields(redirectTo?: true | string) {
  const location = useLocation()
  return {
    csrfToken: useCsrfToken(),
    returnTo: returnAddress(location, redirectTo),
  }
}

/** The `redirectTo` field's value: this page as it is for `true`, else the address given. */
function returnAddress(
  location: { pathname: string; search: string },
  redirectTo: true | string | undefined,
) {
  return redirectTo === true ? location.pathname + location.search : redirectTo
}

export type ListFormFields = ReturnType<typeof useListFormFields>

/**
 * `<ActionForm>` for a row of a long list: a plain `<form method="post">` with the same fields,
 * given by `useListFormFields`. Without JavaScript it posts as any form does; with it, the list
 * submits it through `useSubmit` (e.g. as a fetcher, with `navigate: false` and a `fetcherKey`).
 */
export function ListActionForm({
  fields,
  intent,
  children,
  ...props
}: Omit<ComponentProps<'form'>, 'method'> & { fields: ListFormFields; intent?: string }) {
  return (
    <form method="post" {...props}>
      <input type="hidden" name={CSRF_FIELD} value={fields.csrfToken} />
      {intent === undefined ? null : <input type="hidden" name="intent" value={intent} />}
      {fields.returnTo === undefined ? null : (
        <input type="hidden" name="redirectTo" value={fields.returnTo} />
      )}
      {children}
    </form>
  )
}
