import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { App } from '.'
import { createRouter, loadMatchedRoutes } from './router'

/** Runs the app in `container`, the page's #root. */
export async function start(container: HTMLElement): Promise<Root> {
  await loadMatchedRoutes(window.location.pathname)
  const prerendered = container.hasChildNodes()
  const app = (
    <StrictMode>
      <App router={createRouter({ prerendered })} />
    </StrictMode>
  )
  if (!prerendered) {
    const root = createRoot(container)
    root.render(app)
    return root
  }
  // A public page arrives prerendered (./prerender.tsx): React takes over
  // the HTML the visitor already sees instead of drawing it again, in a
  // transition, so that the work yields to the browser every few
  // milliseconds instead of holding the page in one long task.
  let root!: Root
  startTransition(() => {
    root = hydrateRoot(container, app)
  })
  return root
}
