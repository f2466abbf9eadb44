/**
 * The address of each project's admin in the console journey: the server starts with both in
 * ADMIN_EMAILS (playwright.config.ts), and the e2e database is new for every run.
 */
export const adminAddress = (project: string) => `e2e-admin-${project}@example.test`

export const ADMIN_ADDRESSES = ['js-on', 'js-off'].map(adminAddress)
