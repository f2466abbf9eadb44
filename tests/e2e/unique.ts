/**
 * Names no other test, project or run uses: the e2e database is shared by every worker and both
 * projects, and the Public group and the SMTP inbox are everyone's.
 */

/** An e-mail address. */
export function uniqueAddress(label: string, project: string) {
  return `${label}-${project}-${Date.now()}${Math.floor(Math.random() * 1e6)}@example.test`
}

/** A task title. */
export function uniqueTitle(label: string, project: string) {
  return `${label} ${project} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
}
