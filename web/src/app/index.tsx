import { useEffect } from 'react'
import { RouterProvider } from 'react-router/dom'
import type { createBrowserRouter } from 'react-router'
import { AppProvider } from './provider'

/** The router the app runs: the browser's, or the build's static one while it prerenders a page. */
export type AppRouter = ReturnType<typeof createBrowserRouter>

/**
 * Marks the page as the app's (<html data-app="ready">) once its first
 * render is on the screen: a prerendered page's loader
 * (scripts/load-on-first-input.js) then makes again the press it held. It
 * is part of the app's tree on the server too, so that hydration finds
 * the tree the HTML was rendered from (React's ids follow its shape).
 */
function MarkReady() {
  useEffect(() => {
    document.documentElement.dataset.app = 'ready'
  }, [])
  return null
}

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProvider>
      <RouterProvider router={router} />
      <MarkReady />
    </AppProvider>
  )
}
