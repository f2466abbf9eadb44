import { When } from './admin-page'

type AuditEntry = {
  id: string
  adminEmail: string
  action: string
  target: string
  ip: string | null
  createdAt: Date | string
}

/** Audit rows as the console shows them, read-only: no row has a form. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className="mt-2 text-sm text-muted-foreground">No admin actions yet.</p>
  return (
    // On a phone the table scrolls sideways: the region takes focus so a keyboard can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
    <section aria-label="Audit entries" tabIndex={0} className="mt-3 overflow-x-auto rounded-md border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className="p-2 font-medium">
              When
            </th>
            <th scope="col" className="p-2 font-medium">
              Admin
            </th>
            <th scope="col" className="p-2 font-medium">
              Action
            </th>
            <th scope="col" className="p-2 font-medium">
              On
            </th>
            <th scope="col" className="p-2 font-medium">
              From
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-row">
              <td className="whitespace-nowrap p-2">
                <When at={entry.createdAt} />
              </td>
              <td className="p-2">{entry.adminEmail}</td>
              <td className="p-2 font-mono text-xs">{entry.action}</td>
              <td className="break-all p-2">{entry.target}</td>
              <td className="p-2">{entry.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
