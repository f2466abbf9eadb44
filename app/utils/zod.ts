import { z } from 'zod'

/**
 * The app's one import of zod: every schema imports `z` from here, never from 'zod' (lint keeps it
 * so). zod 4 compiles object parsers with `new Function` unless told not to, and its probe for
 * that runs when a schema is built — in the browser, while the page's modules load. The nonce
 * Content-Security-Policy forbids eval, so each probe was reported as a CSP violation. Jitless
 * mode never probes. Because every schema module imports this one, ES module order runs this
 * line before any schema exists, in every bundle and on the server alike.
 */
z.config({ jitless: true })

export { z }
