import { useProfession } from '@/features/professions/api/get-professions'
import { useSitePage, type SitePageKey } from '@/features/site/api/get-site-page'
import { AboutIllustration } from '@/features/site/components/about-illustration'
import { GuidePage } from '@/features/site/components/guide-page'
import { ResourcesPage } from '@/features/site/components/resources-page'
import { SitePageState, SitePageView } from '@/features/site/components/site-page'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

/** The three guides under /{profession}/resources/. */
export type GuideKey = Extract<SitePageKey, 'ethics' | 'communication' | 'pitfalls'>

function usePage(key: SitePageKey) {
  const slug = useProfessionSlug()
  return useSitePage(slug, key)
}

export function ResourcesRoute() {
  const { data, isPending, refetch } = usePage('resources')
  return data ? <ResourcesPage page={data} /> : <SitePageState isPending={isPending} onRetry={() => void refetch()} />
}

export function GuideRoute({ guide }: { guide: GuideKey }) {
  const slug = useProfessionSlug()
  const { profession } = useProfession(slug)
  const { data, isPending, refetch } = usePage(guide)
  if (!data) return <SitePageState isPending={isPending} onRetry={() => void refetch()} />
  return <GuidePage page={data} displayName={profession?.displayName ?? 'health-profession'} />
}

export function AboutRoute() {
  const { data, isPending, refetch } = usePage('about')
  if (!data) return <SitePageState isPending={isPending} onRetry={() => void refetch()} />
  return (
    <SitePageView
      page={data}
      aside={
        <div className="flex justify-center sm:justify-start">
          <AboutIllustration />
        </div>
      }
    />
  )
}

/** Privacy Policy and Terms of Service. */
export function LegalRoute({ page }: { page: Extract<SitePageKey, 'privacy' | 'terms'> }) {
  const { data, isPending, refetch } = usePage(page)
  return data ? <SitePageView page={data} /> : <SitePageState isPending={isPending} onRetry={() => void refetch()} />
}
