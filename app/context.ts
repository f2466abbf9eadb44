import { createContext } from 'react-router'

/**
 * Per-request values the production server hands to the app through React Router's context.
 * The CSP nonce marks the only inline scripts the browser may run; it is empty under
 * `react-router dev`, which sends no CSP.
 */
export const nonceContext = createContext<string>('')
