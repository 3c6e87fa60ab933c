import { useMe } from '@/features/auth/api/get-me'
import { LandingPage } from '@/features/landing/components/landing-page'
import { useProfession } from '@/features/professions/api/get-professions'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function LandingRoute() {
  const slug = useProfessionSlug()
  const me = useMe()
  const { profession, isPending, isError, refetch } = useProfession(slug)
  return (
    <>
      <title>{profession ? `${profession.displayName} interview practice · Whitecoat` : 'Whitecoat'}</title>
      <LandingPage
        slug={slug}
        signedIn={!!me.data}
        hero={profession ? { title: profession.heroTitle, subtitle: profession.heroSubtitle, displayName: profession.displayName } : undefined}
        guide={profession}
        heroState={profession ? 'ready' : isPending ? 'loading' : isError ? 'error' : 'error'}
        onRetry={() => void refetch()}
      />
    </>
  )
}
