import { useParams } from 'react-router'
import { DEFAULT_PROFESSION, normaliseSlug, type ProfessionSlug } from '@/lib/professions'

/** The current route's profession (already validated by the profession layout). */
export function useProfessionSlug(): ProfessionSlug {
  const { profession } = useParams()
  return normaliseSlug(profession) ?? DEFAULT_PROFESSION
}
