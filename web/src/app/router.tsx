import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { RequireAdmin, RequireAuth } from '@/features/auth/components/require-auth'
import { DEFAULT_PROFESSION } from '@/lib/professions'
import { AdminQuestionsRoute, AdminRoute } from '@/routes/admin'
import { ForgotPasswordRoute, LoginRoute, ResetPasswordRoute, SignupRoute, VerifyEmailRoute } from '@/routes/auth'
import { DashboardRoute } from '@/routes/dashboard'
import { HistoryRoute } from '@/routes/history'
import { LandingRoute } from '@/routes/landing'
import { LastProfessionRedirect } from '@/routes/last-profession-redirect'
import { SessionRoute, SetupRoute, SummaryRoute } from '@/routes/practice'
import { ProfessionLayout } from '@/routes/profession-layout'
import { PricingRoute, TestCheckoutRoute } from '@/routes/pricing'
import { AboutRoute, GuideRoute, LegalRoute, ResourcesRoute } from '@/routes/static-pages'
import { RootLayout } from './layout/root-layout'
import { RouteError } from './route-error'

const toDefault = <Navigate to={`/${DEFAULT_PROFESSION}`} replace />

/** Paths without a profession that resolve to the last profession's page. */
const ALIASES = ['dashboard', 'history', 'setup', 'session', 'summary', 'admin', 'admin/questions', 'pricing', 'resources', 'about', 'privacy', 'terms']

/** The spec's route table (§2). Static segments outrank `:profession`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: toDefault },
      { path: 'login', element: <LoginRoute /> },
      { path: 'signup', element: <SignupRoute /> },
      { path: 'forgot-password', element: <ForgotPasswordRoute /> },
      { path: 'reset-password', element: <ResetPasswordRoute /> },
      { path: 'verify-email', element: <VerifyEmailRoute /> },
      ...ALIASES.map((rest) => ({ path: rest, element: <LastProfessionRedirect rest={rest} /> })),
      {
        path: ':profession',
        element: <ProfessionLayout />,
        children: [
          { index: true, element: <LandingRoute /> },
          { path: 'pricing', element: <PricingRoute /> },
          { path: 'resources', element: <ResourcesRoute /> },
          { path: 'resources/ethics', element: <GuideRoute guide="ethics" /> },
          { path: 'resources/communication', element: <GuideRoute guide="communication" /> },
          { path: 'resources/pitfalls', element: <GuideRoute guide="pitfalls" /> },
          { path: 'about', element: <AboutRoute /> },
          { path: 'privacy', element: <LegalRoute page="privacy" /> },
          { path: 'terms', element: <LegalRoute page="terms" /> },
          {
            element: <RequireAuth />,
            children: [
              { path: 'dashboard', element: <DashboardRoute /> },
              { path: 'history', element: <HistoryRoute /> },
              { path: 'setup', element: <SetupRoute /> },
              { path: 'session', element: <SessionRoute /> },
              { path: 'summary', element: <SummaryRoute /> },
              { path: 'checkout/test', element: <TestCheckoutRoute /> },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'admin', element: <AdminRoute /> },
                  { path: 'admin/questions', element: <AdminQuestionsRoute /> },
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

export function createRouter() {
  return createBrowserRouter(routes)
}
