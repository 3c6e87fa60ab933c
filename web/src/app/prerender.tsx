import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
import { createStaticHandler, createStaticRouter } from 'react-router'
import { setPrerenderedResponses } from '@/lib/preloaded'
import { App } from '.'
import { routes } from './router'

/**
 * The HTML of the public page at `path`, rendered from `responses` (the
 * API responses its first render reads, by API path) as the browser's
 * first render will draw it from the same responses, which the server
 * writes into the page: src/main.tsx then hydrates it. Run at build time
 * by scripts/prerender.mjs.
 */
export async function renderPage(path: string, responses: Readonly<Record<string, unknown>>): Promise<string> {
  const handler = createStaticHandler(routes)
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')))
  if (context instanceof Response) throw new Error(`${path}: the router answered ${context.status}, not a page`)
  if (context.errors) throw new Error(`${path}: ${JSON.stringify(context.errors)}`)
  setPrerenderedResponses(responses)
  try {
    const { prelude } = await prerender(
      <StrictMode>
        <App router={createStaticRouter(handler.dataRoutes, context)} />
      </StrictMode>,
    )
    return await new Response(prelude).text()
  } finally {
    setPrerenderedResponses(null)
  }
}
