import { useEffect } from 'react'
import { Navigate, Outlet, useLocation, useParams } from 'react-router'
import { decideProfessionRoute, setLastProfession } from '@/lib/professions'

/**
 * Validates the `:profession` segment: known slugs render (and are remembered
 * as the last profession), other cases of a known slug redirect to the
 * lower-case path, unknown professions redirect to `/`.
 */
export function ProfessionLayout() {
  const { profession } = useParams()
  const location = useLocation()
  const decision = decideProfessionRoute(profession, location.pathname)
  const slug = decision.kind === 'render' ? decision.slug : null

  useEffect(() => {
    if (slug) setLastProfession(slug)
  }, [slug])

  if (decision.kind === 'redirect') {
    return <Navigate to={{ pathname: decision.to, search: location.search, hash: location.hash }} replace state={location.state} />
  }
  return <Outlet />
}
