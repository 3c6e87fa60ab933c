import { useEffect } from 'react'
import { Navigate, Outlet, useLocation, useParams } from 'react-router'
import { decideProfessionRoute, remembersProfession, setLastProfession } from '@/lib/professions'

/**
 * Validates the `:profession` segment: known slugs render (and, where the
 * page is a use of the profession, are remembered as the last one), other cases of a known slug redirect to the
 * lower-case path, unknown professions redirect to `/`.
 */
export function ProfessionLayout() {
  const { profession } = useParams()
  const location = useLocation()
  const decision = decideProfessionRoute(profession, location.pathname)
  const remembered = decision.kind === 'render' && remembersProfession(location.pathname) ? decision.slug : null

  useEffect(() => {
    if (remembered) setLastProfession(remembered)
  }, [remembered])

  if (decision.kind === 'redirect') {
    return <Navigate to={{ pathname: decision.to, search: location.search, hash: location.hash }} replace state={location.state} />
  }
  return <Outlet />
}
