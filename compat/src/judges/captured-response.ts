/** A 200 JSON answer for an SDK whose `fetch` hook captured the request: the SDK finishes, nothing left the process. */
export function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
}
