import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { ActionButton, ActionForm } from '~/components/action-form'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { type SettingsActionData, SettingsSection } from '~/components/settings/section'
import { Badge } from '~/components/ui/badge'
import { Button, StatusButton } from '~/components/ui/button'
import { API_TOKEN_LIMITS, type ApiTokenScope } from '~/domain/api-tokens'
import { NewApiTokenSchema } from '~/services/api-token-schemas'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'

/** A personal API token as the page lists it: never its secret. */
export type TokenRow = {
  id: string
  name: string
  scope: ApiTokenScope
  createdAt: string
  lastUsedAt: string | null
  expiresAt: string | null
  isExpired: boolean
}

/** What the action answers after making a token: the one time its secret is shown. */
export type CreatedToken = { token: string; name: string }

const SCOPE_OPTIONS = [
  { value: 'read', label: 'Read only' },
  { value: 'read-write', label: 'Read and write' },
]
const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'none', label: 'Never' },
]

/** Personal API tokens: make one (shown once), see each one's use, revoke any. */
export function TokensSection({
  tokens,
  created,
  actionData,
}: {
  tokens: TokenRow[]
  created: CreatedToken | undefined
  actionData: SettingsActionData
}) {
  const revokeErrors = resultFor(actionData, 'revoke-token')?.error
  return (
    <SettingsSection
      title="Personal API tokens"
      description="A token lets a script or an AI agent work with your tasks as you, through the RPC API and the MCP server. Treat it like a password."
    >
      {created ? <NewToken created={created} /> : null}
      <NewTokenForm actionData={actionData} isFull={tokens.length >= API_TOKEN_LIMITS.perPerson} />
      <ErrorList
        errors={revokeErrors ? Object.values(revokeErrors).flatMap((messages) => messages ?? []) : undefined}
      />
      {tokens.length === 0 ? (
        <p className="mt-6 text-sm text-muted-foreground">You have no tokens yet.</p>
      ) : (
        <ul className="mt-6 divide-y rounded-md border" aria-label="Your tokens">
          {tokens.map((token) => (
            <li
              key={token.id}
              className="flex flex-wrap items-center justify-between gap-3 p-3"
              data-testid="token-row"
            >
              <div>
                <p className="font-medium">
                  {token.name}{' '}
                  <Badge tone="primary-soft" weight="normal" className="ml-1">
                    {token.scope === 'read' ? 'Read only' : 'Read and write'}
                  </Badge>{' '}
                  {token.isExpired ? (
                    <Badge weight="normal" className="ml-1">
                      Expired
                    </Badge>
                  ) : null}
                </p>
                <p className="text-xs text-muted-foreground">
                  Created {formatDate(token.createdAt)} · Last used{' '}
                  {token.lastUsedAt ? formatDate(token.lastUsedAt) : 'never'} ·{' '}
                  {token.expiresAt
                    ? `${token.isExpired ? 'Expired' : 'Expires'} ${formatDate(token.expiresAt)}`
                    : 'Never expires'}
                </p>
              </div>
              <ActionButton
                intent="revoke-token"
                fields={{ tokenId: token.id }}
                label="Revoke"
                pendingText="Revoking…"
                accessibleName={`Revoke ${token.name}`}
              />
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  )
}

function NewToken({ created }: { created: CreatedToken }) {
  const [isCopied, setIsCopied] = useState(false)
  return (
    <div role="status" className="mb-6 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">
        Your new token “{created.name}”. Copy it now: it will not be shown again.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <input
          readOnly
          value={created.token}
          aria-label="New token"
          className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={async () => {
            await navigator.clipboard.writeText(created.token)
            setIsCopied(true)
          }}
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  )
}

function NewTokenForm({ actionData, isFull }: { actionData: SettingsActionData; isFull: boolean }) {
  const isPending = useIsPending({ intent: 'create-token' })
  const [form, fields] = useForm({
    id: 'create-token',
    lastResult: resultFor(actionData, 'create-token'),
    constraint: getZodConstraint(NewApiTokenSchema),
    defaultValue: { scope: 'read', expiry: '90' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewApiTokenSchema }),
  })
  return (
    <ActionForm intent="create-token" className="flex flex-col gap-4" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field label="Name" meta={fields.name} hint="What will use it, e.g. “Claude Desktop” or “CI”" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Access" meta={fields.scope} options={SCOPE_OPTIONS} />
        <SelectField label="Expires" meta={fields.expiry} options={EXPIRY_OPTIONS} />
      </div>
      <StatusButton isPending={isPending} pendingText="Creating…" className="self-start" disabled={isFull}>
        Create token
      </StatusButton>
    </ActionForm>
  )
}

function formatDate(iso: string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso))
}
