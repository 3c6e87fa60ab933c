import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App } from './app'
import { createRouter, loadMatchedRoutes } from './app/router'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('missing #root element')

await loadMatchedRoutes(window.location.pathname)
const app = (
  <StrictMode>
    <App router={createRouter()} />
  </StrictMode>
)
// A public page arrives prerendered (src/app/prerender.tsx): React takes
// over the HTML the visitor already sees instead of drawing it again, in
// a transition, so that the work yields to the browser every few
// milliseconds instead of holding the page in one long task.
if (root.hasChildNodes()) startTransition(() => void hydrateRoot(root, app))
else createRoot(root).render(app)
