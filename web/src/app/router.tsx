import type { ReactNode } from 'react'
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router'
import { RequireAdmin, RequireAuth } from '@/features/auth/components/require-auth'
import { DEFAULT_PROFESSION } from '@/lib/professions'
import { LandingRoute } from '@/routes/landing'
import { LastProfessionRedirect } from '@/routes/last-profession-redirect'
import { ProfessionLayout } from '@/routes/profession-layout'
import { RootLayout } from './layout/root-layout'
import { RouteError } from './route-error'

const toDefault = <Navigate to={`/${DEFAULT_PROFESSION}`} replace />

/**
 * Every page but the landing page is its own chunk, loaded when its route
 * matches: a first visit downloads the landing page and nothing of the
 * signed-in app (issue 14's budget: 100 KB of gzipped JavaScript).
 */
const auth = () => import('@/routes/auth')
const practice = () => import('@/routes/practice')
const pricing = () => import('@/routes/pricing')
const admin = () => import('@/routes/admin')
const staticPages = () => import('@/routes/static-pages')
const dashboard = () => import('@/routes/dashboard')
const history = () => import('@/routes/history')
const progress = () => import('@/routes/progress')
const review = () => import('@/routes/review')

function page<M>(load: () => Promise<M>, render: (module: M) => ReactNode): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ element: render(await load()) }) }
}

/** Paths without a profession that resolve to the last profession's page. */
const ALIASES = ['dashboard', 'history', 'progress', 'setup', 'session', 'summary', 'admin', 'admin/questions', 'pricing', 'resources', 'about', 'privacy', 'terms']

/** The spec's route table (§2). Static segments outrank `:profession`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: toDefault },
      { path: 'login', ...page(auth, (m) => <m.LoginRoute />) },
      { path: 'signup', ...page(auth, (m) => <m.SignupRoute />) },
      { path: 'forgot-password', ...page(auth, (m) => <m.ForgotPasswordRoute />) },
      { path: 'reset-password', ...page(auth, (m) => <m.ResetPasswordRoute />) },
      { path: 'verify-email', ...page(auth, (m) => <m.VerifyEmailRoute />) },
      { path: 'review', ...page(review, (m) => <m.ReviewRoute />) },
      ...ALIASES.map((rest) => ({ path: rest, element: <LastProfessionRedirect rest={rest} /> })),
      {
        path: ':profession',
        element: <ProfessionLayout />,
        children: [
          { index: true, element: <LandingRoute /> },
          { path: 'pricing', ...page(pricing, (m) => <m.PricingRoute />) },
          { path: 'resources', ...page(staticPages, (m) => <m.ResourcesRoute />) },
          { path: 'resources/ethics', ...page(staticPages, (m) => <m.GuideRoute guide="ethics" />) },
          { path: 'resources/communication', ...page(staticPages, (m) => <m.GuideRoute guide="communication" />) },
          { path: 'resources/pitfalls', ...page(staticPages, (m) => <m.GuideRoute guide="pitfalls" />) },
          { path: 'about', ...page(staticPages, (m) => <m.AboutRoute />) },
          { path: 'privacy', ...page(staticPages, (m) => <m.LegalRoute page="privacy" />) },
          { path: 'terms', ...page(staticPages, (m) => <m.LegalRoute page="terms" />) },
          {
            element: <RequireAuth />,
            children: [
              { path: 'dashboard', ...page(dashboard, (m) => <m.DashboardRoute />) },
              { path: 'history', ...page(history, (m) => <m.HistoryRoute />) },
              { path: 'progress', ...page(progress, (m) => <m.ProgressRoute />) },
              { path: 'setup', ...page(practice, (m) => <m.SetupRoute />) },
              { path: 'session', ...page(practice, (m) => <m.SessionRoute />) },
              { path: 'summary', ...page(practice, (m) => <m.SummaryRoute />) },
              { path: 'checkout/test', ...page(pricing, (m) => <m.TestCheckoutRoute />) },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'admin', ...page(admin, (m) => <m.AdminRoute />) },
                  { path: 'admin/questions', ...page(admin, (m) => <m.AdminQuestionsRoute />) },
                ],
              },
            ],
          },
          { path: '*', element: toDefault },
        ],
      },
      { path: '*', element: toDefault },
    ],
  },
]

/**
 * The app's router. `prerendered`: the page's HTML is already there and is
 * hydrated. The router is then told so (hydration data, with no loader to
 * carry), which keeps it from scrolling to the top when the app takes over:
 * a visitor who had already scrolled down a guide was thrown back up, and a
 * click on its last link landed on empty page instead.
 */
export function createRouter({ prerendered }: { prerendered: boolean }) {
  return createBrowserRouter(routes, prerendered ? { hydrationData: {} } : undefined)
}

/**
 * Loads the code of the routes that match `location` before the router
 * is made, so that its first render draws the page itself: a prerendered
 * page as its HTML was rendered (hydration), any other page without an
 * empty first frame.
 */
export async function loadMatchedRoutes(location: string) {
  const matches = matchRoutes(routes, location) ?? []
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      Object.assign(route, await route.lazy(), { lazy: undefined })
    }),
  )
}
