import { RouterProvider } from 'react-router/dom'
import type { createBrowserRouter } from 'react-router'
import { AppProvider } from './provider'

/** The router the app runs: the browser's, or the build's static one while it prerenders a page. */
export type AppRouter = ReturnType<typeof createBrowserRouter>

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  )
}
