import { ErrorList, Field, type FieldMeta } from '~/components/forms'
import { WORKSPACE_LIMITS } from '~/domain/workspaces'
import { SLUG_TAKEN } from '~/services/workspaces/workspace-schemas'

const { slug } = WORKSPACE_LIMITS

/**
 * A workspace's name and address, as the create form on /workspaces and the rename form of its
 * settings ask for them. The server's one refusal about a field the browser cannot check — the
 * address taken — comes back as the form's message, and is shown at the address.
 */
export function WorkspaceFields({
  fields,
  formErrors,
  errorId,
}: {
  fields: { name: FieldMeta; slug: FieldMeta }
  formErrors: string[] | undefined
  errorId: string
}) {
  const isTaken = formErrors?.includes(SLUG_TAKEN) ?? false
  const otherErrors = formErrors?.filter((error) => error !== SLUG_TAKEN)
  const slugMeta = isTaken ? withError(fields.slug, SLUG_TAKEN) : fields.slug
  return (
    <>
      <ErrorList id={errorId} errors={otherErrors} />
      <Field label="Name" meta={fields.name} autoComplete="off" />
      <Field
        label="Address"
        meta={slugMeta}
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        placeholder="my-team"
        hint={`${slug.minLength} to ${slug.maxLength} lower-case letters, digits and hyphens: /workspaces/<address>`}
      />
    </>
  )
}

/** The field with one more error. Read property by property: conform's metadata are getters. */
function withError(meta: FieldMeta, error: string): FieldMeta {
  const { id, name, formId, key, initialValue, errorId, required, minLength, maxLength } = meta
  const errors = [...(meta.errors ?? []), error]
  return { id, name, formId, key, initialValue, errorId, errors, required, minLength, maxLength }
}
