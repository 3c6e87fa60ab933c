import { isRouteErrorResponse, useRouteError } from 'react-router'
import { ErrorScreen } from './error-boundary'

/** errorElement for the router: render errors and bad route responses. */
export function RouteError() {
  const error = useRouteError()
  console.error('Route error:', error)
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined
  return <ErrorScreen message={message} />
}
