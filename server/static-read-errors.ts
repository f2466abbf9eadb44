import type { ServerResponse } from 'node:http'

/**
 * sirv pipes a file stream into the response without listening for its errors, so a file that
 * vanishes between the lookup and the read (a deploy or rebuild swapping the folder) would throw
 * an unhandled 'error' and end the process. The stream announces itself to the response ('pipe');
 * its failure now ends just that response.
 */
export function endOnReadError(res: ServerResponse) {
  res.once('pipe', (source) => {
    source.once('error', (error: Error) => {
      console.error(`Static file read failed: ${error.message}`)
      if (res.headersSent) res.destroy()
      else res.writeHead(404).end()
    })
  })
}
