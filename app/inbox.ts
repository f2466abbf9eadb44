/**
 * Where a person's mentions are listed: the header's bell, the inbox page's forms and the
 * mention e-mail all point here.
 */
export const INBOX_PATH = '/notifications'
