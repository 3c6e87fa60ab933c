import { ChevronDown } from 'lucide-react'
import { lazy, Suspense, useState, type KeyboardEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { useProfessions } from '@/features/professions/api/get-professions'
import { normaliseSlug, PROFESSION_SLUGS, setLastProfession, swapProfession, type ProfessionSlug } from '@/lib/professions'

const loadMenu = () => import('./profession-menu')
const ProfessionMenu = lazy(loadMenu)

/** Keys that open a menu button (WAI-ARIA menu button pattern). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp'])

/**
 * Dropdown of the seven professions. Choosing one swaps the first path
 * segment and keeps the rest of the path (and the query string).
 *
 * Every public page shows it, so its menu code loads only when the student
 * reaches for it (hover or focus fetches it, opening shows it); until then
 * the button is the same menu button, closed.
 */
export function ProfessionSwitcher({ current }: { current: ProfessionSlug }) {
  const navigate = useNavigate()
  const location = useLocation()
  const { data } = useProfessions()
  const [menuWanted, setMenuWanted] = useState<'pointer' | 'keyboard' | null>(null)
  const nameOf = (slug: string) => data?.professions?.find((p) => p.slug === slug)?.displayName ?? slug.toUpperCase()
  // Order from the API when it has loaded; the routing contract's order until then.
  const slugs = data?.professions?.map((p) => p.slug).filter((s) => normaliseSlug(s)) ?? [...PROFESSION_SLUGS]

  function choose(value: string) {
    const slug = normaliseSlug(value)
    if (!slug) return
    setLastProfession(slug)
    if (slug === current && normaliseSlug(location.pathname.split('/')[1]) === slug) return
    navigate(`${swapProfession(location.pathname, slug)}${location.search}`)
  }

  const button = (closedProps: object) => (
    <Button variant="outline" size="sm" className="max-w-[11rem]" aria-label={`Profession: ${nameOf(current)}. Change profession`} {...closedProps}>
      <span className="truncate">{nameOf(current)}</span>
      <ChevronDown aria-hidden="true" />
    </Button>
  )
  const closed = button({
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => void loadMenu(),
    onFocus: () => void loadMenu(),
    onClick: () => setMenuWanted('pointer'),
    onKeyDown: (event: KeyboardEvent) => {
      if (!OPENING_KEYS.has(event.key)) return
      event.preventDefault()
      setMenuWanted('keyboard')
    },
  })
  if (!menuWanted) return closed
  return (
    <Suspense fallback={closed}>
      <ProfessionMenu openedByKeyboard={menuWanted === 'keyboard'} trigger={button({})} current={current} options={slugs.map((slug) => ({ slug, name: nameOf(slug) }))} onChoose={choose} />
    </Suspense>
  )
}
