import { ChevronDown } from 'lucide-react'
import { useLocation, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { useProfessions } from '@/features/professions/api/get-professions'
import { normaliseSlug, PROFESSION_SLUGS, setLastProfession, swapProfession, type ProfessionSlug } from '@/lib/professions'

/**
 * Dropdown of the seven professions. Choosing one swaps the first path
 * segment and keeps the rest of the path (and the query string).
 */
export function ProfessionSwitcher({ current }: { current: ProfessionSlug }) {
  const navigate = useNavigate()
  const location = useLocation()
  const { data } = useProfessions()
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

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="max-w-[11rem]" aria-label={`Profession: ${nameOf(current)}. Change profession`}>
          <span className="truncate">{nameOf(current)}</span>
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel>Profession</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current} onValueChange={choose}>
          {slugs.map((slug) => (
            <DropdownMenuRadioItem key={slug} value={slug}>
              {nameOf(slug)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
