/** The error a call fails with; the test fails if it succeeds. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('Expected the call to fail, but it succeeded')
}
