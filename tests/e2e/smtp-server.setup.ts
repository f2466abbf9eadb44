import { startSmtpServer } from '../fixtures/smtp-server'
import { e2eMailDir } from './smtp-inbox'

/**
 * Starts the local SMTP server in the runner, on the port the config chose and gave the app
 * server as SMTP_URL, for the whole run. Each message it receives is written to the run's mail
 * folder, where the tests (in other processes) read it. The app only sends once tests act, so
 * the app server starting first does not matter.
 */
export default async function startLocalSmtpServer() {
  const smtp = await startSmtpServer({ port: Number(process.env.E2E_SMTP_PORT), saveTo: e2eMailDir() })
  return () => smtp.close()
}
