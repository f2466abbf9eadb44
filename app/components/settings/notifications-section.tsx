import { useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { StatusButton } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { SettingsSection } from './section'

/** Whether mentions also reach the person by e-mail while they are away. */
export function NotificationsSection({ emailOnMention }: { emailOnMention: boolean }) {
  const fetcher = useFetcher()
  const isPending = fetcher.state !== 'idle'
  return (
    <SettingsSection
      title="Notifications"
      description="Mentions always wait in your notifications, behind the bell at the top of every page. While you are away, they can reach you by e-mail too: several in one e-mail, a few minutes after the first."
    >
      <ActionForm
        fetcher={fetcher}
        action="/settings"
        intent="mention-emails"
        className="flex flex-col gap-4"
        preventScrollReset
      >
        {/* Keyed by the saved value, so the box shows it again after saving. */}
        <Checkbox
          key={String(emailOnMention)}
          name="emailOnMention"
          value="on"
          defaultChecked={emailOnMention}
          label="E-mail me when I'm mentioned"
        />
        <StatusButton isPending={isPending} pendingText="Saving…" variant="outline" className="self-start">
          Save notification settings
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}
