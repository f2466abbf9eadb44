import { Link } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { buttonClasses } from '~/components/ui/button'
import { SettingsSection } from './section'

/** Whether two-factor sign-in is on, and the way to its own page (/settings/two-factor). */
export function TwoFactorSection({
  status,
  recoveryCodesLeft,
}: {
  status: 'off' | 'pending' | 'on'
  recoveryCodesLeft: number
}) {
  return (
    <SettingsSection
      title="Two-factor sign-in"
      description="A code from an authenticator app after your password, GitHub or Google."
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm">
          {status === 'on' ? (
            <>
              <Badge tone="primary-soft" weight="normal">
                On
              </Badge>{' '}
              {recoveryCodesLeft} recovery codes left
            </>
          ) : status === 'pending' ? (
            'Set up, waiting for a code to confirm it.'
          ) : (
            'Off'
          )}
        </p>
        <Link to="/settings/two-factor" className={buttonClasses('outline')}>
          {status === 'on' ? 'Manage two-factor sign-in' : 'Set up two-factor sign-in'}
        </Link>
      </div>
    </SettingsSection>
  )
}
