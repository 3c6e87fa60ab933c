import { QueryClient } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { createMemoryRouter, type InitialEntry } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { AppProvider } from '@/app/provider'
import { routes } from '@/app/router'

export function testQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}

/** Renders the real route table in memory at `entry`. */
export function renderApp(entry: InitialEntry = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [entry] })
  const queryClient = testQueryClient()
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...utils, router, queryClient }
}
